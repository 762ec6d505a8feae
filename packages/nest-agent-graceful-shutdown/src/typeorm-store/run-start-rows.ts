import type { EntityManager } from 'typeorm';
import { RunEntity } from './entities/run.entity.js';
import { ThreadEntity } from './entities/thread.entity.js';
import { assertRunSlot, lockOwnerRuns } from './owner-run-slots.js';
import type { SessionDatabase } from './session-database.js';
import type { ThreadStatus } from '../contracts/session-records.js';
import { NewerRecordFormatError } from '../errors/newer-record-format.error.js';
import { RECORD_FORMAT_VERSION, understandsFormat } from './record-format.js';
import { insertMessages } from './session-rows.js';
import { recordNotRunCalls } from './tool-call-rows.js';
import { dequeueForStart } from './run-queue-rows.js';
import {
  ThreadBusyError,
  type StartedRun,
  type StartRunCommand,
} from '../contracts/session-store.interface.js';

/**
 * Writes a run's start inside the caller's transaction: the thread (created if new) locked and
 * checked free, the owner's run slot when `maxActiveRunsPerOwner` is set, the run's record, its
 * new messages, and the thread's lease until `leaseUntilSql` (a SQL time on the database's
 * clock). `at` is the ISO time users see. Throws `ThreadBusyError` when the thread runs, or
 * changed since the caller read it, and `NewerRecordFormatError` when a newer release wrote it.
 * Calls the resume answered without running them are recorded `not_run` in the same transaction.
 * Raises the thread's lease epoch under the row lock and returns it: the attempt's fencing token.
 * A run started from the thread's queue (`queuedRunId`) is taken off it in the same transaction.
 */
export async function writeRunStart(
  db: SessionDatabase,
  manager: EntityManager,
  command: StartRunCommand,
  at: string,
  leaseUntilSql: string,
): Promise<StartedRun> {
  const threads = manager.getRepository(ThreadEntity);
  const limit = command.maxActiveRunsPerOwner;
  if (limit !== undefined) await lockOwnerRuns(manager, command.ownerId);
  let thread = await db.lockThread(manager, command.threadId);
  if (thread && !understandsFormat(thread))
    throw new NewerRecordFormatError(command.threadId, thread.formatVersion, RECORD_FORMAT_VERSION);
  if (thread?.activeRunId)
    throw new ThreadBusyError(`thread ${command.threadId} already runs ${thread.activeRunId}`);
  if (
    command.expectedLastRunKey !== undefined &&
    (thread?.lastRunKey ?? null) !== command.expectedLastRunKey
  ) {
    throw new ThreadBusyError(`thread ${command.threadId} changed since it was read`);
  }
  if (command.queuedRunId !== undefined)
    await dequeueForStart(manager, thread, command.queuedRunId);
  if (limit !== undefined) await assertRunSlot(manager, command.ownerId, limit, db.clockSql());
  const existed = thread !== null;
  thread ??= threads.create({
    threadId: command.threadId,
    ownerId: command.ownerId,
    messageCount: 0,
    interrupt: null,
    runState: null,
    leaseEpoch: 0,
    queuedRuns: 0,
    formatVersion: RECORD_FORMAT_VERSION,
    createdAt: at,
  });
  await manager.getRepository(RunEntity).insert({
    key: command.runKey,
    threadId: command.threadId,
    runId: command.runId,
    status: 'running',
    stopReason: null,
    errorCode: null,
    errorMessage: null,
    iteration: 0,
    phase: null,
    instanceId: command.instanceId,
    agentName: command.agentName ?? null,
    agentVersion: command.agentRelease?.version ?? null,
    agentFingerprint: command.agentRelease?.fingerprint ?? null,
    startedAt: at,
    endedAt: null,
  });
  await insertMessages(
    manager,
    command.threadId,
    thread.messageCount,
    command.runId,
    command.messages,
    at,
  );
  await recordNotRunCalls(manager, command, at);
  // The row is locked (or new, and a concurrent insert fails on its key): no other start reads the same epoch.
  const fencingToken = (thread.leaseEpoch ?? 0) + 1;
  Object.assign(thread, {
    leaseEpoch: fencingToken,
    messageCount: thread.messageCount + command.messages.length,
    status: 'running' satisfies ThreadStatus,
    activeRunId: command.runId,
    lastRunKey: command.runKey,
    leaseOwner: command.instanceId,
    updatedAt: at,
  });
  const lease = { leaseExpiresAt: () => leaseUntilSql };
  // Never `save`: it reads before writing, so a thread another instance created meanwhile
  // would be overwritten instead of failing on its primary key.
  if (existed) await threads.update({ threadId: thread.threadId }, { ...thread, ...lease });
  else await threads.insert({ ...thread, ...lease });
  return { fencingToken };
}
