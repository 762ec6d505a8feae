import { LessThanOrEqual, type EntityManager } from 'typeorm';
import type { ThreadStatus } from '../contracts/session-records.js';
import {
  ThreadBusyError,
  type EnqueueRunCommand,
  type QueuedRun,
  type QueuedRunInput,
} from '../contracts/session-store.interface.js';
import { QueuedRunEntity } from './entities/queued-run.entity.js';
import { ThreadEntity } from './entities/thread.entity.js';
import { RECORD_FORMAT_VERSION, understandsFormat } from './record-format.js';
import type { SessionDatabase } from './session-database.js';

/**
 * Stores a run in its thread's queue inside the caller's transaction (see
 * `SessionStore.enqueueRun`): the thread row locked, the run added after those queued, the
 * thread's `queuedRuns` raised. A run the queue holds already is answered as it is.
 */
export async function writeEnqueue(
  db: SessionDatabase,
  manager: EntityManager,
  command: EnqueueRunCommand,
  at: string,
): Promise<QueuedRun | null> {
  const { threadId, runId } = command;
  const thread = await db.lockThread(manager, threadId);
  if (!thread || !understandsFormat(thread)) return null;
  const queue = manager.getRepository(QueuedRunEntity);
  let row = await queue.findOneBy({ threadId, runId });
  if (!row) {
    await queue.insert({
      threadId,
      runId,
      ownerId: command.ownerId,
      agentName: command.agentName,
      input: JSON.stringify(command.input),
      enqueuedAt: at,
    });
    row = await queue.findOneByOrFail({ threadId, runId });
    await manager
      .getRepository(ThreadEntity)
      .update({ threadId }, { queuedRuns: (thread.queuedRuns ?? 0) + 1 });
  }
  const position = await queue.count({ where: { threadId, seq: LessThanOrEqual(row.seq) } });
  return toQueuedRun(row, position);
}

/** The thread's queued runs, the next to start first. */
export async function findQueuedRows(
  manager: EntityManager,
  threadId: string,
): Promise<QueuedRun[]> {
  const rows = await manager
    .getRepository(QueuedRunEntity)
    .find({ where: { threadId }, order: { seq: 'ASC' } });
  return rows.map((row, index) => toQueuedRun(row, index + 1));
}

/**
 * Removes a queued run inside the caller's transaction, the thread row locked, and lowers the
 * thread's `queuedRuns`; false when it was not queued.
 */
export async function writeQueueCancel(
  db: SessionDatabase,
  manager: EntityManager,
  threadId: string,
  runId: string,
): Promise<boolean> {
  const thread = await db.lockThread(manager, threadId);
  if (!thread) return false;
  return removeQueued(manager, thread, runId);
}

/**
 * A queued run's start takes it off the queue, inside the start's transaction (the thread row is
 * locked): `ThreadBusyError` when it is queued no more, as another instance started it or its
 * user canceled it. Lowers `thread.queuedRuns`, which the start writes with the thread.
 */
export async function dequeueForStart(
  manager: EntityManager,
  thread: ThreadEntity | null,
  runId: string,
): Promise<void> {
  if (!thread || !(await removeQueued(manager, thread, runId, false))) {
    throw new ThreadBusyError(
      `run ${runId} is not queued on thread ${thread?.threadId ?? '(none)'}: started or canceled`,
    );
  }
}

/**
 * Threads with queued runs that nothing holds back (no active run, no pause for approval), the
 * longest waiting first.
 */
export async function findStartableQueueRows(
  manager: EntityManager,
  limit: number,
): Promise<string[]> {
  const paused: ThreadStatus = 'awaiting_approval';
  const rows = await manager
    .getRepository(QueuedRunEntity)
    .createQueryBuilder('q')
    .innerJoin(ThreadEntity, 't', 't.thread_id = q.thread_id')
    .select('q.thread_id', 'threadId')
    .addSelect('MIN(q.seq)', 'first')
    .where('t.active_run_id IS NULL')
    .andWhere('t.status <> :paused', { paused })
    .andWhere('t.format_version <= :format', { format: RECORD_FORMAT_VERSION })
    .groupBy('q.thread_id')
    .orderBy('first', 'ASC')
    .limit(limit)
    .getRawMany<{ threadId: string }>();
  return rows.map((row) => row.threadId);
}

/** Deletes the queued run; with `write`, also the thread's lowered count (else the caller writes the thread). */
async function removeQueued(
  manager: EntityManager,
  thread: ThreadEntity,
  runId: string,
  write = true,
): Promise<boolean> {
  const { threadId } = thread;
  const { affected } = await manager.getRepository(QueuedRunEntity).delete({ threadId, runId });
  if (!affected) return false;
  thread.queuedRuns = Math.max(0, (thread.queuedRuns ?? 1) - 1);
  if (write)
    await manager
      .getRepository(ThreadEntity)
      .update({ threadId }, { queuedRuns: thread.queuedRuns });
  return true;
}

function toQueuedRun(row: QueuedRunEntity, position: number): QueuedRun {
  return {
    threadId: row.threadId,
    runId: row.runId,
    ownerId: row.ownerId,
    agentName: row.agentName,
    input: JSON.parse(row.input) as QueuedRunInput,
    position,
    enqueuedAt: row.enqueuedAt,
  };
}
