import type { Checkpoint } from '@langchain/langgraph';
import type { CompiledGraph } from './langgraph-types.js';

/** Whether a saved checkpoint can be resumed on the current graph, and if not, why. */
export type CheckpointFit = { fits: true } | { fits: false; reason: string };

/** LangGraph's channel of `Send` packets, and the prefix of the channel that triggers a node. */
const TASKS_CHANNEL = '__pregel_tasks';
const TRIGGER_PREFIX = 'branch:to:';

/**
 * Whether `checkpoint` (the root graph's latest, saved by an earlier run of the thread, maybe by
 * another release of the graph) fits `graph`, the graph that would continue it. LangGraph
 * restores a checkpoint channel by channel: a channel of the graph the checkpoint has no value
 * for starts empty (`fromCheckpoint(undefined)`), and a node of the checkpoint the graph no
 * longer has is silently not run. So the checkpoint does not fit when:
 *
 * - one of its next nodes (a node a pending trigger or `Send` targets) is not in the graph: that
 *   step would be lost, and the run would end or go on from a point no code of the graph reached;
 * - or a channel is new (the graph has it, the release that saved the checkpoint did not:
 *   `savedChannels`, or, for a state saved without that list, a channel the checkpoint has
 *   neither a value nor a version of), still empty once restored (no default: a `LastValue`
 *   channel; a reducer channel with a `default` starts from it and is fine), and a next node
 *   reads it. In a run of the new graph an earlier node (the new `planner`) would have written
 *   it; here the next node would read `undefined`.
 *
 * Anything else fits: a renamed or removed node that is not next, a removed channel (LangGraph
 * ignores its value), a new channel with a default or that no next node reads, a checkpoint
 * with no next node (the next turn starts at the graph's entry).
 */
export function checkpointFit(
  graph: CompiledGraph,
  checkpoint: Checkpoint,
  savedChannels?: readonly string[],
): CheckpointFit {
  const next = nextNodes(checkpoint);
  const unknown = next.find((node) => !(node in graph.nodes));
  if (unknown) return { fits: false, reason: `unknown next node ${unknown}` };
  const { channel_values: values, channel_versions: versions } = checkpoint;
  const known = savedChannels ? new Set(savedChannels) : undefined;
  const isNew = (channel: string) =>
    known ? !known.has(channel) : !(channel in values) && !(channel in versions);
  for (const channel of graph.streamChannelsList) {
    if (!isNew(channel) || channel in values || !startsEmpty(graph.channels[channel])) continue;
    const reader = next.find((node) => readChannels(graph.nodes[node]).includes(channel));
    if (reader) return { fits: false, reason: `missing channel ${channel} read by ${reader}` };
  }
  return { fits: true };
}

/**
 * The nodes the checkpoint's next step runs: those with a trigger newer than they saw, and the
 * targets of its `Send`s.
 */
export function nextNodes(checkpoint: Checkpoint): string[] {
  const next = new Set<string>();
  for (const [channel, value] of Object.entries(checkpoint.channel_values)) {
    if (!channel.startsWith(TRIGGER_PREFIX)) continue;
    const node = channel.slice(TRIGGER_PREFIX.length);
    const seen = checkpoint.versions_seen[node]?.[channel];
    const pending = seen === undefined || newer(checkpoint.channel_versions[channel], seen);
    if (value !== undefined && pending) next.add(node);
  }
  const sends = checkpoint.channel_values[TASKS_CHANNEL];
  for (const send of Array.isArray(sends) ? sends : []) {
    const node = (send as { node?: unknown } | null)?.node;
    if (typeof node === 'string') next.add(node);
  }
  return [...next];
}

function newer(version: unknown, seen: unknown): boolean {
  if (typeof version === 'number' && typeof seen === 'number') return version > seen;
  return String(version) > String(seen);
}

/** The part of a LangGraph channel that restores it from a checkpoint value. */
interface Restorable {
  fromCheckpoint(value: undefined): { isAvailable(): boolean };
}

/** Whether a channel restored from no value is empty (no default); a managed value is never. */
function startsEmpty(channel: unknown): boolean {
  const restorable = channel as Partial<Restorable> | undefined;
  if (typeof restorable?.fromCheckpoint !== 'function') return false;
  return !restorable.fromCheckpoint(undefined).isAvailable();
}

/** The channels a node reads as its input (a StateGraph node: every key of its input schema). */
function readChannels(node: CompiledGraph['nodes'][string] | undefined): string[] {
  const channels = node?.channels;
  if (typeof channels === 'string') return [channels];
  if (Array.isArray(channels)) return channels as string[];
  return channels ? Object.values(channels) : [];
}
