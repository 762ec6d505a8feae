import { IsNull, Not, type EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { LeaseLostError } from '../errors/lease-lost.error';
import { ThreadEntity } from './entities/thread.entity';

/** What a fenced write names: the thread and the run attempt that believes it holds the lease. */
export interface FenceToken {
  threadId: string;
  runKey: string;
}

/**
 * The fencing condition: the thread still has an active run and it is this attempt. A run
 * that lost its lease (taken over, or recovered as a crash) no longer matches.
 */
export const holdsLease = (token: FenceToken) => ({
  threadId: token.threadId,
  lastRunKey: token.runKey,
  activeRunId: Not(IsNull()),
});

/**
 * Updates the thread only if `token` still holds its lease, and throws `LeaseLostError`
 * otherwise. As the first statement of a transaction it also takes the thread's row lock
 * (PostgreSQL), so a takeover cannot interleave with the rest of the write.
 */
export async function fencedThreadUpdate(manager: EntityManager, token: FenceToken, changes: QueryDeepPartialEntity<ThreadEntity>): Promise<void> {
  const result = await manager.getRepository(ThreadEntity).update(holdsLease(token), changes);
  if (!result.affected) throw new LeaseLostError(token.threadId, token.runKey);
}

/**
 * `fencedThreadUpdate` for a checkpoint of a running attempt: the same write extends the lease
 * to `leaseUntilSql` (a SQL time expression on the database's clock). A committed checkpoint is
 * proof of life, and on PostgreSQL the renewal skips the row this checkpoint locks, so the
 * checkpoint renews it instead.
 */
export function fencedCheckpoint(
  manager: EntityManager,
  token: FenceToken,
  changes: QueryDeepPartialEntity<ThreadEntity>,
  leaseUntilSql: string,
): Promise<void> {
  return fencedThreadUpdate(manager, token, { ...changes, leaseExpiresAt: () => leaseUntilSql });
}
