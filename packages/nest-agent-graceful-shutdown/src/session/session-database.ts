import type { DataSource, EntityManager } from 'typeorm';
import { retryThroughOutage, type RetryPolicy } from './connection-retry';
import { ThreadEntity } from './entities/thread.entity';
import { WriteQueue } from './write-queue';

/**
 * How the session store talks to its database, whichever it is: transactions pass through
 * one queue on SQLite (one writer; TypeORM would nest concurrent ones as savepoints) and are
 * retried through a connection loss on PostgreSQL; a thread's row is locked where the
 * database has row locks.
 */
export class SessionDatabase {
  private resolved?: { dataSource: DataSource; queue?: WriteQueue; postgres: boolean };

  /** @param source the data source, or a function that returns it once it is initialized. */
  constructor(
    private readonly source: DataSource | (() => DataSource),
    private readonly retry: RetryPolicy,
  ) {}

  get dataSource(): DataSource {
    return this.connection().dataSource;
  }

  /** True for an embedded file that no other process shares. */
  get embedded(): boolean {
    return this.connection().queue !== undefined;
  }

  /**
   * Runs `work` in a transaction. `attempt` counts retries after a lost connection: from 1 on,
   * an earlier attempt may have committed unseen, so the work checks whether it is done.
   */
  transaction<T>(work: (manager: EntityManager, attempt: number) => Promise<T>): Promise<T> {
    const { dataSource, queue } = this.connection();
    const run = (attempt: number) => dataSource.transaction((manager) => work(manager, attempt));
    return queue ? queue.run(() => run(0)) : retryThroughOutage(run, this.retry);
  }

  /** Find options that lock the rows read for the rest of the transaction, where the database has row locks. */
  rowLock(): { lock?: { mode: 'pessimistic_write' } } {
    return this.connection().postgres ? { lock: { mode: 'pessimistic_write' } } : {};
  }

  /** The thread's row, locked for the rest of the transaction where the database has row locks. */
  lockThread(manager: EntityManager, threadId: string): Promise<ThreadEntity | null> {
    return manager.getRepository(ThreadEntity).findOne({ where: { threadId }, ...this.rowLock() });
  }

  private connection(): { dataSource: DataSource; queue?: WriteQueue; postgres: boolean } {
    if (!this.resolved) {
      const dataSource = typeof this.source === 'function' ? this.source() : this.source;
      const type = dataSource.options.type;
      const embedded = type === 'better-sqlite3' || type === 'sqlite';
      this.resolved = { dataSource, queue: embedded ? writeQueueOf(dataSource) : undefined, postgres: type === 'postgres' };
    }
    return this.resolved;
  }
}

const writeQueues = new WeakMap<DataSource, WriteQueue>();

/** One write queue per embedded database, shared by every user of its data source (the store, the event log). */
function writeQueueOf(dataSource: DataSource): WriteQueue {
  let queue = writeQueues.get(dataSource);
  if (!queue) writeQueues.set(dataSource, (queue = new WriteQueue()));
  return queue;
}
