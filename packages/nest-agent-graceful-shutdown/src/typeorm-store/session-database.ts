import type { DataSource, EntityManager } from 'typeorm';
import { retryThroughOutage, type RetryPolicy } from '../database/connection-retry.js';
import { ThreadEntity } from './entities/thread.entity.js';
import { LeaseRenewalConnection } from './lease-renewal-connection.js';
import { WriteQueue } from '../database/write-queue.js';

/** The part of a node-postgres connection used for raw statements (named ones are parsed once per connection). */
export interface PostgresConnection {
  query<R>(statement: { name?: string; text: string; values?: unknown[] }): Promise<{ rows: R[] }>;
}

/**
 * How the session store talks to its database, whichever it is: transactions pass through
 * one queue on SQLite (one writer; TypeORM would nest concurrent ones as savepoints) and are
 * retried through a connection loss on PostgreSQL; a thread's row is locked where the
 * database has row locks. Lease times come from the database's clock, never an instance's.
 */
export class SessionDatabase {
  private resolved?: {
    dataSource: DataSource;
    queue?: WriteQueue;
    postgres: boolean;
    renewer?: LeaseRenewalConnection;
  };

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

  /** True on PostgreSQL (row locks, `SKIP LOCKED`, a connection pool). */
  get postgres(): boolean {
    return this.connection().postgres;
  }

  /**
   * A SQL expression for the database's current time plus `offsetMs` milliseconds, as ISO text
   * in the format of `Date#toISOString()` (so it compares as text with the stored lease times).
   * Every instance reads the same clock, so lease expiry cannot be faked by an instance whose
   * wall clock drifted. PostgreSQL's `statement_timestamp()` moves between the statements of a
   * transaction (unlike `now()`) and, being stable, can still drive an index scan.
   */
  clockSql(offsetMs = 0): string {
    // A number of ours, truncated: never interpolate input here.
    const ms = Math.trunc(offsetMs);
    return this.connection().postgres
      ? `to_char((statement_timestamp() + ${ms} * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '${(ms / 1000).toFixed(3)} seconds')`;
  }

  /** The database's current time as ISO text (see `clockSql`), read with `manager` (default: outside any transaction). */
  async now(manager: EntityManager = this.dataSource.manager): Promise<string> {
    const [row] = (await manager.query(`SELECT ${this.clockSql()} AS now`)) as Array<{
      now: string;
    }>;
    return row.now;
  }

  /**
   * The thread's row and the database's time (`now()`), read in one statement, so a status read
   * of a running thread judges its lease without a second round trip; null for no such thread.
   */
  async readThread(threadId: string): Promise<{ thread: ThreadEntity; now: string } | null> {
    const { entities, raw } = await this.dataSource
      .getRepository(ThreadEntity)
      .createQueryBuilder('thread')
      .addSelect(this.clockSql(), 'database_now')
      .where('thread.threadId = :threadId', { threadId })
      .getRawAndEntities<{ database_now: string }>();
    return entities[0] ? { thread: entities[0], now: raw[0].database_now } : null;
  }

  /**
   * Runs a lease renewal where checkpoints cannot starve it: on PostgreSQL on a connection of
   * its own (see `LeaseRenewalConnection`; each statement commits on its own), on SQLite in a
   * transaction at the front of the write queue, right after the one in flight.
   */
  renewal<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const { dataSource, queue, renewer } = this.connection();
    if (queue) return queue.run(() => dataSource.transaction(work), { urgent: true });
    return renewer!.run(work);
  }

  /** The threads table as SQL names it (with the data source's prefix, if any), for raw statements. */
  get threadTable(): string {
    const { dataSource } = this.connection();
    return dataSource.driver.escape(dataSource.getMetadata(ThreadEntity).tablePath);
  }

  /** Closes what this object opened (the renewal connection); the data source stays the host's. */
  async close(): Promise<void> {
    await this.resolved?.renewer?.close();
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

  /**
   * Runs `work` on a pooled PostgreSQL connection of its own, outside any transaction: for one
   * statement that is atomic on its own (PostgreSQL runs a statement as one), with no BEGIN and
   * COMMIT round trips. Retried through a lost connection like a transaction (`attempt` counts
   * the retries). PostgreSQL only.
   */
  async onConnection<T>(
    work: (connection: PostgresConnection, attempt: number) => Promise<T>,
  ): Promise<T> {
    const { dataSource } = this.connection();
    return retryThroughOutage(async (attempt) => {
      const runner = dataSource.createQueryRunner();
      try {
        return await work((await runner.connect()) as PostgresConnection, attempt);
      } finally {
        await runner.release();
      }
    }, this.retry);
  }

  /**
   * Runs `work` outside any transaction, retried through a lost connection like one (`attempt`
   * counts the retries): for a write that is one statement, atomic on its own, with no BEGIN and
   * COMMIT round trips. PostgreSQL only (SQLite's writes go through its queue, in transactions).
   */
  statement<T>(work: (manager: EntityManager, attempt: number) => Promise<T>): Promise<T> {
    const { dataSource } = this.connection();
    return retryThroughOutage((attempt) => work(dataSource.manager, attempt), this.retry);
  }

  /**
   * A read a run needs to go on (a resumed run's tool call records), retried through a lost
   * connection like a transaction: a database restart delays the run instead of failing it.
   */
  readThrough<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const { dataSource, queue } = this.connection();
    return queue
      ? work(dataSource.manager)
      : retryThroughOutage(() => work(dataSource.manager), this.retry);
  }

  /** Find options that lock the rows read for the rest of the transaction, where the database has row locks. */
  rowLock(): { lock?: { mode: 'pessimistic_write' } } {
    return this.connection().postgres ? { lock: { mode: 'pessimistic_write' } } : {};
  }

  /** The thread's row, locked for the rest of the transaction where the database has row locks. */
  lockThread(manager: EntityManager, threadId: string): Promise<ThreadEntity | null> {
    return manager.getRepository(ThreadEntity).findOne({ where: { threadId }, ...this.rowLock() });
  }

  /**
   * Like `lockThread`, but null at once when another transaction holds the row (`SKIP LOCKED`):
   * a crash sweep must not wait on a run's checkpoint in flight, nor forever on the open
   * transaction of a stalled process. The caller tries again on its next round.
   */
  lockThreadIfFree(manager: EntityManager, threadId: string): Promise<ThreadEntity | null> {
    const lock = this.connection().postgres
      ? { lock: { mode: 'pessimistic_write' as const, onLocked: 'skip_locked' as const } }
      : {};
    return manager.getRepository(ThreadEntity).findOne({ where: { threadId }, ...lock });
  }

  private connection(): {
    dataSource: DataSource;
    queue?: WriteQueue;
    postgres: boolean;
    renewer?: LeaseRenewalConnection;
  } {
    if (!this.resolved) {
      const dataSource = typeof this.source === 'function' ? this.source() : this.source;
      const type = dataSource.options.type;
      // TypeORM 1 dropped the `sqlite` driver; a host on 0.3 may still use it.
      const embedded = type === 'better-sqlite3' || (type as string) === 'sqlite';
      const postgres = type === 'postgres';
      this.resolved = {
        dataSource,
        queue: embedded ? writeQueueOf(dataSource) : undefined,
        postgres,
        renewer: embedded ? undefined : new LeaseRenewalConnection(dataSource),
      };
    }
    return this.resolved;
  }
}

const writeQueues = new WeakMap<DataSource, WriteQueue>();

/** One write queue per embedded database, shared by every user of its data source (the store, the event log). */
export function writeQueueOf(dataSource: DataSource): WriteQueue {
  let queue = writeQueues.get(dataSource);
  if (!queue) writeQueues.set(dataSource, (queue = new WriteQueue()));
  return queue;
}
