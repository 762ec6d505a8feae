import { In, IsNull, LessThan, Not, type EntityManager } from 'typeorm';
import { ThreadEntity } from './entities/thread.entity';

/** Whether `thread` has an active run whose lease has run out by `nowIso` (or predates leases). */
export function leaseExpired(thread: ThreadEntity, nowIso: string): boolean {
  return thread.activeRunId !== null && (thread.leaseExpiresAt === null || thread.leaseExpiresAt < nowIso);
}

/** Extends the leases `instanceId` holds for these run attempts; returns the run keys it still holds. */
export async function renewLeaseRows(manager: EntityManager, instanceId: string, runKeys: readonly string[], expiresAt: string): Promise<Set<string>> {
  const threads = manager.getRepository(ThreadEntity);
  const held = { leaseOwner: instanceId, lastRunKey: In([...runKeys]), activeRunId: Not(IsNull()) };
  await threads.update(held, { leaseExpiresAt: expiresAt });
  const kept = await threads.find({ select: { threadId: true, lastRunKey: true }, where: held });
  return new Set(kept.map((thread) => thread.lastRunKey as string));
}

/**
 * Threads whose active run may be orphaned: its lease expired (or predates leases), or, for an
 * exclusive owner of the store, it is held by any other instance. Re-check each under its lock.
 */
export async function crashCandidates(manager: EntityManager, nowIso: string, exclusiveInstanceId?: string): Promise<string[]> {
  const active = { activeRunId: Not(IsNull()) };
  const expired = [
    { ...active, leaseExpiresAt: LessThan(nowIso) },
    { ...active, leaseExpiresAt: IsNull() },
  ];
  const others = exclusiveInstanceId
    ? [
        { ...active, leaseOwner: Not(exclusiveInstanceId) },
        { ...active, leaseOwner: IsNull() },
      ]
    : [];
  const rows = await manager.getRepository(ThreadEntity).find({ select: { threadId: true }, where: [...expired, ...others] });
  return rows.map((row) => row.threadId);
}
