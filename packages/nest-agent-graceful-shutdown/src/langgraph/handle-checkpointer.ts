import { randomUUID } from 'node:crypto';
import type { BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointTuple,
} from '@langchain/langgraph';
import type { AgentMessage } from '../agent/agent-message.js';
import type { RunHandle } from '../handle/run-handle.interface.js';
import { fromLangChain, toLangChain } from './lc-messages.js';
import {
  decodeGraphState,
  encodeGraphState,
  savedChannelsOf,
  type GraphEntry,
} from './saved-graph-state.js';

type PendingWrite = Parameters<BaseCheckpointSaver['putWrites']>[1][number];

/** Channels whose writes replace the task's earlier write instead of adding to it (LangGraph's own rule). */
const SPECIAL_WRITES = new Set(['__error__', '__scheduled__', '__interrupt__', '__resume__']);

/**
 * A LangGraph checkpointer backed by one run's handle. The messages channel of the root graph
 * is the session's conversation: a checkpoint makes durable only the messages the session does
 * not hold yet (found from the newest back), so its cost grows with the new messages and not
 * with the channel; the rest of the checkpoint (other channels, versions, pending writes) is
 * saved with the thread as the run's framework state. Only the latest checkpoint is kept.
 */
export class HandleCheckpointer extends BaseCheckpointSaver {
  private readonly entries = new Map<string, GraphEntry>();
  private loaded = false;
  /** The framework state the checkpoints are read from, when not the handle's `savedState`. */
  private source?: { state: unknown };
  private dirty = false;
  /** Ids of the session's messages, filled from `handle.messages` as it grows. */
  private readonly known = new Set<string>();
  private seen = 0;
  private readonly converted = new Map<string, BaseMessage>();

  /**
   * @param channels the graph's state channels, saved with each checkpoint so that a later
   * release of the graph knows which channels are new to it
   */
  constructor(
    private readonly handle: RunHandle,
    private readonly messagesKey: string,
    private readonly channels?: readonly string[],
  ) {
    super();
  }

  /** The root graph's saved checkpoint (its messages channel aside), and the channels it was saved with. */
  async saved(): Promise<{ checkpoint: Checkpoint; channels?: string[] } | undefined> {
    await this.load();
    const root = this.entries.get('');
    return root && { checkpoint: root.checkpoint, channels: savedChannelsOf(this.sourceState()) };
  }

  /** Reads the checkpoints from `state` instead of the handle's `savedState` (the one a migration replaced). */
  readFrom(state: unknown): void {
    this.source = { state };
    this.loaded = false;
    this.entries.clear();
  }

  /** Forgets the saved checkpoints: the run starts the graph afresh, and its first checkpoint replaces them. */
  discard(): void {
    this.loaded = true;
    this.entries.clear();
    this.dirty = false;
  }

  /** Sets channel values of the root's saved checkpoint (a migration's), as if a step had written them. */
  async setValues(values: Record<string, unknown>): Promise<void> {
    await this.load();
    const root = this.entries.get('');
    if (!root) return;
    const { channel_values, channel_versions } = root.checkpoint;
    const versions = { ...channel_versions };
    for (const channel of Object.keys(values))
      versions[channel] = this.getNextVersion(versions[channel] as number | undefined);
    root.checkpoint = {
      ...root.checkpoint,
      channel_values: { ...channel_values, ...values },
      channel_versions: versions,
    };
    this.dirty = true;
  }

  /** Whether a checkpoint of an earlier run of the thread exists. */
  async hasCheckpoint(): Promise<boolean> {
    await this.load();
    return this.entries.has('');
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    await this.load();
    const ns = namespaceOf(config);
    const entry = this.entries.get(ns);
    const wanted = config.configurable?.checkpoint_id as string | undefined;
    if (!entry || (wanted && wanted !== entry.checkpoint.id)) return undefined;
    const checkpoint = ns === '' ? this.withMessages(entry.checkpoint) : entry.checkpoint;
    const thread_id = this.handle.threadId;
    return {
      config: { configurable: { thread_id, checkpoint_ns: ns, checkpoint_id: checkpoint.id } },
      checkpoint,
      metadata: entry.metadata,
      pendingWrites: entry.writes,
      ...(entry.parentId
        ? {
            parentConfig: {
              configurable: { thread_id, checkpoint_ns: ns, checkpoint_id: entry.parentId },
            },
          }
        : {}),
    };
  }

  async *list(config: RunnableConfig): AsyncGenerator<CheckpointTuple> {
    const tuple = await this.getTuple({ configurable: { checkpoint_ns: namespaceOf(config) } });
    if (tuple) yield tuple;
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
  ): Promise<RunnableConfig> {
    await this.load();
    const ns = namespaceOf(config);
    let kept = checkpoint;
    let fresh: AgentMessage[] = [];
    if (ns === '') {
      const { [this.messagesKey]: messages, ...rest } = checkpoint.channel_values;
      if (Array.isArray(messages)) fresh = this.newMessages(messages as BaseMessage[]);
      kept = { ...checkpoint, channel_values: rest };
    }
    this.entries.set(ns, {
      checkpoint: kept,
      metadata,
      parentId: config.configurable?.checkpoint_id as string | undefined,
      writes: [],
    });
    // The step's new messages and the graph's state go in one write.
    this.dirty = false;
    await this.handle.commitStep({
      messages: fresh,
      state: await encodeGraphState(this.serde, this.entries, this.channels),
    });
    return {
      configurable: {
        thread_id: this.handle.threadId,
        checkpoint_ns: ns,
        checkpoint_id: checkpoint.id,
      },
    };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    const entry = this.entries.get(namespaceOf(config));
    if (!entry) return;
    for (const [channel, value] of writes) {
      const same = entry.writes.findIndex(([task, ch]) => task === taskId && ch === channel);
      if (same >= 0 && !SPECIAL_WRITES.has(channel)) continue;
      if (same >= 0) entry.writes.splice(same, 1);
      entry.writes.push([taskId, channel, value]);
    }
    this.dirty = true;
  }

  async deleteThread(): Promise<void> {
    this.entries.clear();
    this.dirty = false;
    await this.handle.saveState(null);
  }

  /** Makes the latest checkpoint and its pending writes (an `interrupt()`, finished tasks of a cut step) durable. */
  async flush(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    await this.handle.saveState(await encodeGraphState(this.serde, this.entries, this.channels));
  }

  private async load(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    for (const [ns, entry] of await decodeGraphState(this.serde, this.sourceState()))
      this.entries.set(ns, entry);
  }

  private sourceState(): unknown {
    return this.source ? this.source.state : this.handle.savedState;
  }

  /** The checkpoint with the conversation as its messages channel. */
  private withMessages(checkpoint: Checkpoint): Checkpoint {
    const messages = this.handle.messages.map((message) => this.lc(message));
    return {
      ...checkpoint,
      channel_values: { ...checkpoint.channel_values, [this.messagesKey]: messages },
    };
  }

  /** The messages at the end of `channel` that the session does not hold, as the session stores them. */
  private newMessages(channel: readonly BaseMessage[]): AgentMessage[] {
    for (; this.seen < this.handle.messages.length; this.seen++)
      this.known.add(this.handle.messages[this.seen].id);
    let start = channel.length;
    while (start > 0 && !(channel[start - 1].id && this.known.has(channel[start - 1].id as string)))
      start--;
    const fresh: AgentMessage[] = [];
    for (const message of channel.slice(start)) {
      message.id ??= randomUUID();
      const stored = fromLangChain(message, message.id);
      this.known.add(message.id);
      if (!stored) continue;
      this.converted.set(message.id, message);
      fresh.push(stored);
    }
    return fresh;
  }

  private lc(message: AgentMessage): BaseMessage {
    let converted = this.converted.get(message.id);
    if (!converted) {
      converted = toLangChain(message);
      this.converted.set(message.id, converted);
    }
    return converted;
  }
}

function namespaceOf(config: RunnableConfig): string {
  return (config.configurable?.checkpoint_ns as string | undefined) ?? '';
}
