import { In, IsNull, Not, Raw, type EntityManager, type FindOptionsWhere } from 'typeorm';
import { ThreadEntity } from './entities/thread.entity.js';
import { understoodFormatWhere } from './record-format.js';

// Whether a run's lease is live or expired is decided here only, and always against the
// database's clock (`SessionDatabase.clockSql()` / `now()`): lease times are ISO text in the
// format of `Date#toISOString()`, so they compare as text with that clock.

/**
 * Find conditions for the threads whose active run holds a live lease at `clockSql` (a SQL
 * expression for the database's time: `SessionDatabase.clockSql()`). A lease that ends exactly
 * now is still live; a missing one never is. Count or select with it wherever "runs alive"
 * matters (e.g. a per-user limit of running runs), so a crashed instance's runs stop counting
 * the moment their lease runs out, before any sweep records them.
 * @example threads.countBy({ ownerId, ...liveLeaseWhere(db.clockSql()) })
 */
export function liveLeaseWhere(clockSql: string): FindOptionsWhere<ThreadEntity> {
  return {
    activeRunId: Not(IsNull()),
    leaseExpiresAt: Raw((column) => `${column} >= ${clockSql}`),
  };
}

/** Find conditions (any of them) for threads whose active run's lease expired at `clockSql`, or predates leases: the negation of `liveLeaseWhere`. */
export function expiredLeaseWhere(clockSql: string): FindOptionsWhere<ThreadEntity>[] {
  const active = { activeRunId: Not(IsNull()) };
  return [
    { ...active, leaseExpiresAt: Raw((column) => `${column} < ${clockSql}`) },
    { ...active, leaseExpiresAt: IsNull() },
  ];
}

/** Whether `thread` has an active run whose lease expired by `nowIso`, the database's time (`SessionDatabase.now()`): `expiredLeaseWhere` on a row already read. */
export function leaseExpired(thread: ThreadEntity, nowIso: string): boolean {
  return (
    thread.activeRunId !== null &&
    (thread.leaseExpiresAt === null || thread.leaseExpiresAt < nowIso)
  );
}

/**
 * Extends to `untilSql` (a SQL time expression) the leases `instanceId` holds for these run
 * attempts, in one transaction (SQLite); returns the run keys it still holds.
 */
export async function renewLeaseRows(
  manager: EntityManager,
  instanceId: string,
  runKeys: readonly string[],
  untilSql: string,
): Promise<Set<string>> {
  const threads = manager.getRepository(ThreadEntity);
  const held = { leaseOwner: instanceId, lastRunKey: In([...runKeys]), activeRunId: Not(IsNull()) };
  await threads.update(held, { leaseExpiresAt: () => untilSql });
  const kept = await threads.find({ select: { threadId: true, lastRunKey: true }, where: held });
  return new Set(kept.map((thread) => thread.lastRunKey as string));
}

/**
 * PostgreSQL's renewal, for the renewal connection: extends the leases without waiting for
 * a row lock (`SKIP LOCKED`: a row locked by this run's own checkpoint gets its lease extended
 * by that checkpoint's commit), then reads without locks which run keys are still held at all.
 * A key that is not held any more was taken over or recorded as a crash.
 */
export async function renewLeaseRowsSkippingLocked(
  manager: EntityManager,
  table: string,
  instanceId: string,
  runKeys: readonly string[],
  untilSql: string,
): Promise<Set<string>> {
  const held = `lease_owner = $1 AND last_run_key = ANY($2::varchar[]) AND active_run_id IS NOT NULL`;
  const keys = [...runKeys];
  await manager.query(
    `UPDATE ${table} SET lease_expires_at = ${untilSql} WHERE thread_id IN (SELECT thread_id FROM ${table} WHERE ${held} FOR UPDATE SKIP LOCKED)`,
    [instanceId, keys],
  );
  const kept = (await manager.query(`SELECT last_run_key FROM ${table} WHERE ${held}`, [
    instanceId,
    keys,
  ])) as Array<{ last_run_key: string }>;
  return new Set(kept.map((row) => row.last_run_key));
}

/**
 * Threads whose active run may be orphaned: its lease expired at `clockSql` (or predates
 * leases), or, for an exclusive owner of the store, it is held by any other instance. Runs in
 * `exceptRunKeys` (this instance's own, still renewed) are left out. Re-check each under its lock.
 */
export async function crashCandidates(
  manager: EntityManager,
  clockSql: string,
  options: { exclusiveInstanceId?: string; exceptRunKeys?: readonly string[] } = {},
): Promise<string[]> {
  // A thread a newer release wrote is never a candidate: recording its crash is that release's job.
  const active = { activeRunId: Not(IsNull()), ...understoodFormatWhere };
  const { exclusiveInstanceId } = options;
  const others = exclusiveInstanceId
    ? [
        { ...active, leaseOwner: Not(exclusiveInstanceId) },
        { ...active, leaseOwner: IsNull() },
      ]
    : [];
  const rows = await manager.getRepository(ThreadEntity).find({
    select: { threadId: true, lastRunKey: true },
    where: [
      ...expiredLeaseWhere(clockSql).map((where) => ({ ...where, ...understoodFormatWhere })),
      ...others,
    ],
  });
  const own = new Set(options.exceptRunKeys);
  return rows
    .filter((row) => row.lastRunKey === null || !own.has(row.lastRunKey))
    .map((row) => row.threadId);
}
