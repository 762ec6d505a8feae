import { EventType, type BaseEvent } from '@ag-ui/core';
import type { RunEventLog, RunLogKey } from '../contracts/run-event-log.interface.js';
import type { ThreadRecord } from '../contracts/session-records.js';
import type { QueuedRun, SessionStore } from '../contracts/session-store.interface.js';
import { terminalEvent, type OutcomeSummary } from './run-outcome-mapping.js';

/** The name of the CUSTOM event a queued run's stream opens with, while it waits. */
export const RUN_QUEUED_EVENT = 'run_queued';

/**
 * Opens a queued run's log: `RUN_STARTED`, then a CUSTOM `run_queued` event
 * `{position, activeRunId}` (its place in the thread's queue, and the run it waits for; null
 * for a pause for approval or a run being started). Its stream waits on this log, and the run,
 * once started on any instance, continues it: the client's one stream goes from waiting to the
 * run's events to its terminal event. A retry of the enqueue writes nothing new (the ids are
 * taken).
 */
export async function openQueuedRunLog(
  log: RunEventLog,
  queued: QueuedRun,
  activeRunId: string | null,
): Promise<void> {
  const { threadId, runId, position } = queued;
  await log.append({ threadId, runId }, [
    { id: 1, event: { type: EventType.RUN_STARTED, threadId, runId } as BaseEvent },
    {
      id: 2,
      event: {
        type: EventType.CUSTOM,
        name: RUN_QUEUED_EVENT,
        value: { position, activeRunId },
      } as BaseEvent,
    },
  ]);
}

/**
 * Ends the log of a run taken off the queue before it started (its user canceled it, or it
 * cannot start: its agent refuses the thread, its input broke a limit meanwhile) with its
 * terminal event, so its waiting stream ends; the log is kept `retentionMs`.
 */
export async function endQueuedRunLog(
  log: RunEventLog,
  key: RunLogKey,
  summary: OutcomeSummary,
  retentionMs: number,
): Promise<void> {
  const last = await log.last(key);
  await log.append(key, [
    { id: (last?.id ?? 0) + 1, event: terminalEvent(key.threadId, key.runId, summary) },
  ]);
  await log.retain(key, retentionMs);
}

/**
 * The queued run `runId` of `thread` (as just read); the queue is read only when the thread
 * counts one, so a request on a thread without a queue costs nothing more.
 */
export async function findQueuedRun(
  store: SessionStore,
  thread: ThreadRecord,
  runId: string,
): Promise<QueuedRun | null> {
  if (!(thread.queuedRuns ?? 0) || !store.findQueuedRuns) return null;
  return (await store.findQueuedRuns(thread.threadId)).find((run) => run.runId === runId) ?? null;
}
