import type { EntityManager } from 'typeorm';
import { TooManyRunsError } from '../errors/too-many-runs.error.js';
import { ThreadEntity } from './entities/thread.entity.js';
import { liveLeaseWhere } from './lease-rows.js';

/**
 * Namespace of the per-owner advisory locks (the first key of PostgreSQL's two-key form, whose
 * key space is apart from the one-key locks such as the migrations' lock).
 */
const OWNER_LOCK_NAMESPACE = 0x52554e53; // "RUNS"

/**
 * Serializes run starts of one owner until the transaction ends, so a count of the owner's
 * active runs and the start that follows it are one step across instances. PostgreSQL takes a
 * transaction-scoped advisory lock on the owner; SQLite's single writer (the write queue)
 * already serializes every transaction. Take it before any row lock: every start takes the
 * two in that order, so they cannot deadlock.
 */
export async function lockOwnerRuns(manager: EntityManager, ownerId: string): Promise<void> {
  if (manager.connection.options.type !== 'postgres') return;
  await manager.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
    OWNER_LOCK_NAMESPACE,
    ownerId,
  ]);
}

/**
 * Refuses a new run with `TooManyRunsError` when `ownerId` already has `limit` threads with a
 * run under a live lease on the database's clock (`clockSql`, see `liveLeaseWhere`): a crashed
 * instance's runs stop counting once their leases run out. Call inside the start's
 * transaction, after `lockOwnerRuns`.
 */
export async function assertRunSlot(
  manager: EntityManager,
  ownerId: string,
  limit: number,
  clockSql: string,
): Promise<void> {
  const active = await manager
    .getRepository(ThreadEntity)
    .countBy({ ownerId, ...liveLeaseWhere(clockSql) });
  if (active >= limit) throw new TooManyRunsError(ownerId, limit);
}
