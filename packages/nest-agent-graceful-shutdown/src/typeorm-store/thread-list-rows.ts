import { Brackets, type EntityManager } from 'typeorm';
import { ThreadEntity } from './entities/thread.entity.js';
import { leaseExpired } from './lease-rows.js';
import type { ThreadStatus } from '../contracts/session-records.js';
import type { ThreadListPage, ThreadListQuery, ThreadSummary } from '../contracts/thread-list.js';

/**
 * One page of `query.ownerId`'s threads by keyset: `(updated_at, thread_id)` below the
 * position, newest first, read along the index `ix_agent_threads_owner_activity`. One row more
 * than asked tells whether another page follows. `nowIso` decides which leases have expired.
 */
export async function findThreadPage(
  manager: EntityManager,
  query: ThreadListQuery,
  nowIso: string,
): Promise<ThreadListPage> {
  const select = manager
    .getRepository(ThreadEntity)
    .createQueryBuilder('thread')
    .where('thread.ownerId = :ownerId', { ownerId: query.ownerId })
    .orderBy('thread.updatedAt', 'DESC')
    .addOrderBy('thread.threadId', 'DESC')
    .limit(query.limit + 1);
  const after = query.after;
  if (after) {
    select.andWhere(
      new Brackets((older) =>
        older
          .where('thread.updatedAt < :updatedAt', { updatedAt: after.updatedAt })
          .orWhere(
            new Brackets((tie) =>
              tie
                .where('thread.updatedAt = :updatedAt')
                .andWhere('thread.threadId < :threadId', { threadId: after.threadId }),
            ),
          ),
      ),
    );
  }
  const rows = await select.getMany();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    threads: page.map((row) => toSummary(row, nowIso)),
    next:
      rows.length > query.limit && last
        ? { updatedAt: last.updatedAt, threadId: last.threadId }
        : null,
  };
}

function toSummary(row: ThreadEntity, nowIso: string): ThreadSummary {
  return {
    threadId: row.threadId,
    ownerId: row.ownerId,
    // What findThread would record before answering: the run's process is gone.
    status: leaseExpired(row, nowIso) ? 'interrupted' : (row.status as ThreadStatus),
    messageCount: row.messageCount,
    updatedAt: row.updatedAt,
  };
}
