import { RunAlreadyEndedError } from '../errors/run-already-ended.error.js';
import { RunIdReusedError } from '../errors/run-id-reused.error.js';
import { StreamGoneError } from '../errors/stream-gone.error.js';
import type { RunRecord, ThreadRecord } from '../contracts/session-records.js';
import type { SessionStore } from '../contracts/session-store.interface.js';
import type { ExistingRunStream } from '../streams/existing-run-stream.js';
import type { RunStreamService } from './run-stream.service.js';
import type { ValidRunInput } from './run-input.js';

/** A run request whose `runId` the thread already has. */
export interface ExistingRunFacts {
  /** The thread, as just read; access was checked. */
  thread: ThreadRecord;
  /** The latest attempt of the named run. */
  run: RunRecord;
  input: ValidRunInput;
  /** Replay after this event id (0: from the first). */
  lastEventId: number;
}

/**
 * The idempotency rules of a run request that names an existing run. Null when the run was
 * interrupted and the request resumes it (as a new attempt: the caller admits it); else the
 * run's stream: joined while the run is active, replayed once it ended. Nothing is written
 * either way. Throws `RunIdReusedError` for input the run never had (a message the thread does
 * not hold, or one it holds with other content), and
 * `RunAlreadyEndedError` for an ended run whose log is gone.
 */
export async function existingRunRequest(
  facts: ExistingRunFacts,
  deps: { store: SessionStore; streams: RunStreamService },
): Promise<ExistingRunStream | null> {
  const { thread, run } = facts;
  const active = thread.activeRunId === run.runId;
  // The messages of an attempt cut short before it stored them come again with its retry.
  if (!active && thread.status === 'interrupted' && thread.interrupt?.runId === run.runId)
    return null;
  await assertSameInput(facts, deps.store);
  const status = clientStatus(run);
  // An interrupted run that a later run continued: replaying its RUN_INTERRUPTED would only ask for another retry.
  if (!active && status === 'interrupted')
    throw new RunAlreadyEndedError(thread.threadId, run.runId, status);
  try {
    return await deps.streams.prepare(thread, run.runId, facts.lastEventId);
  } catch (error) {
    if (error instanceof StreamGoneError && !active)
      throw new RunAlreadyEndedError(thread.threadId, run.runId, status);
    throw error;
  }
}

/** A retry carries what the run had: messages the thread holds, and no approval answers. */
async function assertSameInput(
  { thread, run, input }: ExistingRunFacts,
  store: SessionStore,
): Promise<void> {
  if (input.resume.length)
    throw new RunIdReusedError(
      thread.threadId,
      run.runId,
      'resume',
      'approval answers go in a new run',
    );
  if (!input.userMessages.length) return;
  const held = new Map(
    (await store.loadMessages(thread.threadId)).map((message) => [message.id, message]),
  );
  const fresh = input.userMessages.find((message) => !held.has(message.id));
  if (fresh)
    throw new RunIdReusedError(
      thread.threadId,
      run.runId,
      'messages',
      `message ${fresh.id} is not in the thread`,
    );
  // A known id with other text is other input, not a retry: replaying would drop the new text.
  const changed = input.userMessages.find(({ id, content }) => {
    const stored = held.get(id);
    return stored?.role !== 'user' || stored.content !== content;
  });
  if (changed)
    throw new RunIdReusedError(
      thread.threadId,
      run.runId,
      'messages',
      `message ${changed.id} differs from the thread's`,
    );
}

/** How the run ended, as clients see it (a pause for approval is stored as an interruption). */
function clientStatus(run: RunRecord): string {
  return run.stopReason === 'awaiting_approval' ? 'awaiting_approval' : run.status;
}
