import { EventType, type BaseEvent } from '@ag-ui/core';
import type { RunHandle } from '../handle/run-handle.interface.js';
import { EventLogger } from '../logging/event-logger.js';
import { checkpointFit } from './checkpoint-fit.js';
import type { HandleCheckpointer } from './handle-checkpointer.js';
import type { CompiledGraph } from './langgraph-types.js';
import { isSavedGraphState } from './saved-graph-state.js';

/** The CUSTOM event of a run that does not resume its thread's checkpoint as saved. */
export const GRAPH_STATE_ADAPTED_EVENT = 'graph_state_adapted';

/** What the run continues from instead of the saved checkpoint. */
export type GraphStateDecision = 'restarted_from_messages' | 'migrated';

const logger = new EventLogger('LangGraphAgent');

/**
 * Decides, before a run of a thread starts its graph, what the graph continues from, so that a
 * checkpoint an earlier release saved never makes every turn of the thread fail:
 *
 * - a state the app's `onVersionChange` migration returned (`{ state }`) is used: a saved graph
 *   state as it is, or channel values set on the saved checkpoint (`{ plan: { budget: 10 } }`);
 *   `null` starts afresh;
 * - the checkpoint (migrated or not) is resumed when it fits the graph (`checkpointFit`);
 * - otherwise the saved checkpoint is dropped and the run starts the graph at its entry with the
 *   conversation (the thread's messages) as its only state.
 *
 * Anything but a plain resume is logged at warn and emitted as a CUSTOM `graph_state_adapted`
 * event `{ decision, reason }`.
 */
export async function adaptSavedGraphState(
  graph: CompiledGraph,
  handle: RunHandle,
  saver: HandleCheckpointer,
): Promise<void> {
  const change = handle.versionChange;
  const migrated = change !== null && handle.savedState !== change.savedState;
  if (migrated && !isSavedGraphState(handle.savedState)) {
    if (!isPlainObject(handle.savedState)) {
      saver.discard();
      return report(handle, 'restarted_from_messages', 'the migration gave no graph state');
    }
    saver.readFrom(change.savedState);
    await saver.setValues(handle.savedState);
  }
  const saved = await saver.saved();
  if (!saved) return;
  const fit = checkpointFit(graph, saved.checkpoint, saved.channels);
  if (fit.fits) {
    if (migrated) report(handle, 'migrated', 'onVersionChange migrated the graph state');
    return;
  }
  saver.discard();
  report(handle, 'restarted_from_messages', fit.reason);
}

function report(handle: RunHandle, decision: GraphStateDecision, reason: string): void {
  const { threadId, runId } = handle;
  logger.warn('graph state adapted', { threadId, runId, decision, reason });
  const value = { decision, reason };
  handle.emit({ type: EventType.CUSTOM, name: GRAPH_STATE_ADAPTED_EVENT, value } as BaseEvent);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
