import { EventEmitter } from 'node:events';
import type { BaseEvent } from '@ag-ui/core';
import { LessThan, MoreThan, type DataSource } from 'typeorm';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';
import type {
  LoggedEvent,
  RunEventLog,
  RunLogAppendOptions,
  RunLogKey,
  RunLogListener,
} from '../contracts/run-event-log.interface.js';
import { DEFAULT_RETRY_POLICY } from '../database/connection-retry.js';
import { RunEventLogEntity } from './entities/run-event-log.entity.js';
import { RunEventEntity } from './entities/run-event.entity.js';
import { GroupCommit, type BatchOutcome } from '../database/group-commit.js';
import type { LogNudges } from '../postgres-signals/log-nudges.js';
import {
  appendEventBatch,
  retainLogBatch,
  type AppendRequest,
  type RetainRequest,
} from './run-event-log-rows.js';
import { SessionDatabase } from './session-database.js';
import {
  appendEventsInOneStatement,
  claimInOneStatement,
  oneRunEach,
} from './run-event-append.postgres.js';
import { deliverSafely } from '../contracts/deliver-safely.js';

const keyOf = (run: RunLogKey) => `${run.threadId}\u0000${run.runId}`;
/** How often, at most, evicted logs are deleted, in milliseconds; and how many per round. */
const EVICT_EVERY_MS = 60_000;
const EVICT_BATCH = 100;

/**
 * Run event logs in the session database (SQLite or PostgreSQL): the default without Redis,
 * so a run's stream stays joinable, with its ids going on, across a restart of the one
 * instance. Live delivery is in process; followers on other instances are woken by the log
 * nudges of the PostgreSQL signal bus when there is one, else read at their liveness checks.
 * Evicted logs are deleted from `append`/`retain` calls, at most once a minute, not by a timer.
 * Appends (and retains) of many runs at once are written together, one transaction per batch.
 */
export class TypeOrmRunEventLog implements RunEventLog {
  private readonly db: SessionDatabase;
  private readonly appended = new EventEmitter().setMaxListeners(0);
  private lastEviction = 0;
  // Runs that write at the same moment (a shutdown ends thousands) share one transaction.
  private readonly appends = new GroupCommit<AppendRequest, LoggedEvent[]>(async (requests) => {
    // On PostgreSQL, a batch of one call per run (the usual one) is one statement.
    const outcomes =
      this.postgres && oneRunEach(requests)
        ? await this.db.onConnection((connection) =>
            appendEventsInOneStatement(connection, requests),
          )
        : await this.db.transaction((manager) =>
            appendEventBatch(manager, this.postgres, requests),
          );
    this.nudge(requests, outcomes);
    return outcomes;
  });
  /** Followers on this instance woken by other instances' appends, by run. */
  private readonly nudged = new EventEmitter().setMaxListeners(0);
  private readonly retains = new GroupCommit<RetainRequest>((requests) =>
    // One statement on PostgreSQL; SQLite's writes go through its queue, in a transaction.
    (this.postgres ? this.db.statement.bind(this.db) : this.db.transaction.bind(this.db))(
      async (manager) => {
        await retainLogBatch(manager, this.postgres, requests);
        return requests.map(() => ({ ok: true as const, value: undefined }));
      },
    ),
  );

  /**
   * @param now the clock, in epoch milliseconds; tests inject one.
   * @param nudges carries appends between instances (the PostgreSQL signal bus): followers
   * elsewhere read at once instead of at their liveness check.
   */
  constructor(
    source: DataSource | (() => DataSource),
    private readonly now: () => number = Date.now,
    private readonly nudges?: LogNudges,
  ) {
    this.db = new SessionDatabase(source, DEFAULT_RETRY_POLICY);
    nudges?.onLogAppended((signal) => this.nudged.emit(keyOf(signal), signal.lastId));
  }

  async append(
    run: RunLogKey,
    events: readonly LoggedEvent[],
    writer?: string,
    options?: RunLogAppendOptions,
  ): Promise<void> {
    if (events.length === 0) return;
    const fresh = await this.appends.submit({
      run,
      events,
      writer,
      contiguous: options?.contiguous,
    });
    if (fresh.length) this.appended.emit(keyOf(run), fresh);
    await this.evictExpired();
  }

  async claim(run: RunLogKey, writer: string): Promise<LoggedEvent | null> {
    if (this.postgres)
      return this.db.onConnection((connection) => claimInOneStatement(connection, run, writer));
    const lastId = await this.db.transaction(async (manager) => {
      const logs = manager.getRepository(RunEventLogEntity);
      const log = await logs.findOne({
        where: { threadId: run.threadId, runId: run.runId },
        ...this.db.rowLock(),
      });
      if (log) await logs.update({ threadId: run.threadId, runId: run.runId }, { writer });
      else await logs.insert({ ...run, lastId: 0, expiresAt: null, writer });
      return log?.lastId ?? 0;
    });
    if (lastId === 0) return null;
    const row = await this.db.dataSource
      .getRepository(RunEventEntity)
      .findOneBy({ threadId: run.threadId, runId: run.runId, eventId: lastId });
    return row ? toLogged(row) : null;
  }

  async read(run: RunLogKey, afterId: number, limit: number): Promise<LoggedEvent[] | null> {
    if (!(await this.liveLog(run))) return null;
    const rows = await this.db.dataSource.getRepository(RunEventEntity).find({
      where: { threadId: run.threadId, runId: run.runId, eventId: MoreThan(afterId) },
      order: { eventId: 'ASC' },
      take: limit,
    });
    return rows.map(toLogged);
  }

  async last(run: RunLogKey): Promise<LoggedEvent | null> {
    const log = await this.liveLog(run);
    if (!log) return null;
    const row = await this.db.dataSource
      .getRepository(RunEventEntity)
      .findOneBy({ threadId: run.threadId, runId: run.runId, eventId: log.lastId });
    return row ? toLogged(row) : null;
  }

  follow(run: RunLogKey, afterId: number, listener: RunLogListener): Unsubscribe {
    const key = keyOf(run);
    let cursor = afterId;
    let caughtUp = false;
    const held: LoggedEvent[] = [];
    const deliver = (events: readonly LoggedEvent[]) => {
      const fresh = events.filter((entry) => entry.id > cursor);
      if (fresh.length === 0) return;
      cursor = fresh.at(-1)!.id;
      deliverSafely(listener, fresh);
    };
    const onAppend = (events: readonly LoggedEvent[]) =>
      caughtUp ? deliver(events) : held.push(...events);
    this.appended.on(key, onAppend);
    // Another instance appended: read what this follower has not seen, one read at a time.
    let reading: Promise<void> | undefined;
    let wanted = 0;
    const onNudge = (lastId: number) => {
      wanted = Math.max(wanted, lastId);
      if (reading || !caughtUp || wanted <= cursor) return;
      reading = this.read(run, cursor, 1_000)
        .then(
          (page) => deliver(page ?? []),
          () => undefined,
        )
        .finally(() => {
          reading = undefined;
          if (wanted > cursor) onNudge(wanted);
        });
    };
    this.nudged.on(key, onNudge);
    // What is stored after `afterId` first; what is appended meanwhile waits, in order.
    void (async () => {
      try {
        for (let page: LoggedEvent[] | null; (page = await this.read(run, cursor, 1_000))?.length;)
          deliver(page);
      } catch (error) {
        listener.onError?.(error instanceof Error ? error : new Error(String(error)));
      }
      caughtUp = true;
      deliver(held.splice(0));
      onNudge(wanted);
    })();
    return () => {
      this.appended.off(key, onAppend);
      this.nudged.off(key, onNudge);
    };
  }

  async retain(run: RunLogKey, retentionMs: number): Promise<void> {
    await this.retains.submit({ run, expiresAt: new Date(this.now() + retentionMs).toISOString() });
    await this.evictExpired();
  }

  private async liveLog(run: RunLogKey): Promise<RunEventLogEntity | null> {
    const log = await this.db.dataSource
      .getRepository(RunEventLogEntity)
      .findOneBy({ threadId: run.threadId, runId: run.runId });
    return log && (log.expiresAt === null || log.expiresAt > this.isoNow()) ? log : null;
  }

  /** Deletes logs past their retention, a batch at a time, at most once a minute. */
  private async evictExpired(): Promise<void> {
    if (this.now() - this.lastEviction < EVICT_EVERY_MS) return;
    this.lastEviction = this.now();
    const logs = this.db.dataSource.getRepository(RunEventLogEntity);
    const expired = await logs.find({
      where: { expiresAt: LessThan(this.isoNow()) },
      take: EVICT_BATCH,
    });
    for (const log of expired) {
      await this.db.transaction(async (manager) => {
        // Only if still expired: an append may have brought the log back meanwhile.
        const gone = await manager
          .getRepository(RunEventLogEntity)
          .delete({ threadId: log.threadId, runId: log.runId, expiresAt: LessThan(this.isoNow()) });
        if (gone.affected)
          await manager
            .getRepository(RunEventEntity)
            .delete({ threadId: log.threadId, runId: log.runId });
      });
    }
  }

  /** Announces the runs this batch grew, to the followers on other instances. */
  private nudge(
    requests: readonly AppendRequest[],
    outcomes: readonly BatchOutcome<LoggedEvent[]>[],
  ): void {
    if (!this.nudges) return;
    const grown = requests.flatMap((request, index) => {
      const outcome = outcomes[index];
      const lastId = outcome?.ok ? outcome.value.at(-1)?.id : undefined;
      return lastId === undefined ? [] : [{ ...request.run, lastId }];
    });
    if (grown.length) void this.nudges.publishLogAppended(grown);
  }

  private get postgres(): boolean {
    return this.db.dataSource.options.type === 'postgres';
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}

function toLogged(row: RunEventEntity): LoggedEvent {
  return { id: row.eventId, event: JSON.parse(row.event) as BaseEvent };
}
