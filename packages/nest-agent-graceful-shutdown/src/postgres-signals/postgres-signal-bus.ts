import { EventEmitter } from 'node:events';
import { type LoggerService } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { CancelSubscriptions } from '../signals/cancel-subscriptions.js';
import { InProcessSignalBus } from '../signals/in-process-signal-bus.js';
import type {
  CancelSignal,
  RunEndedSignal,
  SignalBus,
  SignalBusHealth,
  Unsubscribe,
} from '../contracts/signal-bus.interface.js';
import { GroupCommit, type BatchOutcome } from '../database/group-commit.js';
import { PostgresLinkState } from './postgres-link-state.js';
import { PostgresListenConnection, type ReconnectBackoff } from './postgres-listen-connection.js';
import {
  PostgresSignalWire,
  type LogAppendedSignal,
  type Notified,
} from './postgres-signal-wire.js';
import { RunCancelRows } from './run-cancel-rows.js';
import { EventLogger } from '../logging/event-logger.js';

/** How long `connect()` waits for the listening connection before the app boots without it. */
const CONNECT_WAIT_MS = 3_000;
/** Runs per cancel-table read when re-syncing, so one statement stays small. */
const RESYNC_BATCH = 500;
/** A channel prefix keeps every channel a plain identifier (≤ 63 bytes with the longest suffix). */
const CHANNEL_PREFIX = /^[a-z_][a-z0-9_]{0,49}$/;

/** Settings of a {@link PostgresSignalBus}. */
export interface PostgresSignalBusOptions {
  /**
   * Put before every channel (`<prefix>cancel`, `<prefix>run_ended`, `<prefix>log`), so several
   * apps can share one database: lower-case letters, digits and `_`, at most 50 characters.
   * @default 'agent_'
   */
  channelPrefix?: string;
  /** How long a published cancel is remembered for a run that subscribes later, in milliseconds. @default 60000 */
  cancelTtlMs?: number;
  /** Pauses between reconnect attempts. @default 100 ms doubling to 5 s, jittered */
  reconnect?: ReconnectBackoff;
  /** Where connection changes are logged. @default Nest's `Logger` with the context `SignalBus` */
  logger?: LoggerService;
}

/**
 * Signals across instances through PostgreSQL `LISTEN`/`NOTIFY`, for deployments with no Redis.
 * Each instance holds one dedicated listening connection on three fixed channels; notifications
 * go out through the data source's pool. Payloads are ids only. A cancel is also kept in
 * `agent_run_cancels`, so a run that subscribes late still sees it. While the listening
 * connection is down, signals reach this instance's runs only, and runs elsewhere learn of a
 * cancel at their next liveness check; on reconnect the cancel table is read for the runs here.
 */
export class PostgresSignalBus implements SignalBus {
  private readonly local: InProcessSignalBus;
  private readonly subscriptions = new CancelSubscriptions();
  private readonly logAppends = new EventEmitter().setMaxListeners(0);
  private readonly wire: PostgresSignalWire;
  private readonly rows: RunCancelRows;
  private readonly listener: PostgresListenConnection;
  private readonly link: PostgresLinkState;
  private readonly runEnds = new GroupCommit<RunEndedSignal>((signals) =>
    this.announceRunEnds(signals),
  );
  private readonly cancelTtlMs: number;
  private readonly logger: EventLogger;
  private readonly query: (sql: string, parameters: unknown[]) => Promise<unknown>;
  private readonly dataSource: () => DataSource;
  private closed = false;

  /** @param source the data source (PostgreSQL), or a function that returns it once it is initialized. */
  constructor(source: DataSource | (() => DataSource), options: PostgresSignalBusOptions = {}) {
    const prefix = options.channelPrefix ?? 'agent_';
    if (!CHANNEL_PREFIX.test(prefix)) {
      throw new RangeError(
        `signals.postgres.channelPrefix (${JSON.stringify(prefix)}) must be lower-case letters, digits and _, at most 50 characters, not starting with a digit`,
      );
    }
    const dataSource = typeof source === 'function' ? source : () => source;
    this.cancelTtlMs = options.cancelTtlMs ?? 60_000;
    this.local = new InProcessSignalBus(this.cancelTtlMs);
    this.wire = new PostgresSignalWire(prefix);
    this.query = (sql, parameters) => dataSource().query(sql, parameters);
    this.rows = new RunCancelRows(this.query);
    this.logger = new EventLogger(options.logger ?? 'SignalBus');
    this.link = new PostgresLinkState(this.logger);
    this.dataSource = dataSource;
    this.listener = new PostgresListenConnection(
      dataSource,
      this.wire.channels,
      {
        notification: (channel, payload) => this.receive(channel, payload),
        up: () => {
          this.link.up();
          void this.resync();
        },
        down: (error) => this.link.down(error),
      },
      options.reconnect,
    );
  }

  /**
   * Opens the listening connection; resolves once it listens, or after a few seconds if PostgreSQL is down.
   * @throws TypeError when the data source is not PostgreSQL (SQLite has no `LISTEN`: keep the in-process bus).
   */
  async connect(): Promise<void> {
    if (this.closed) return;
    const type = this.dataSource().options.type;
    if (type !== 'postgres')
      throw new TypeError(
        `signals.postgres needs a PostgreSQL data source, got ${type}: leave it unset for one instance on SQLite`,
      );
    this.listener.start();
    if (!this.listener.listening) await this.link.waitForChange(CONNECT_WAIT_MS);
    if (!this.listener.listening && !this.closed)
      this.logger.warn(
        'postgres signals unavailable, signals stay on this instance until it is back',
      );
  }

  /** Closes the listening connection. Safe to call more than once. */
  async close(): Promise<void> {
    this.closed = true;
    this.link.release();
    await this.listener.close();
  }

  async publishCancel(signal: CancelSignal): Promise<void> {
    const { threadId, runId } = signal;
    // The run may be on this instance: it need not wait for PostgreSQL, nor depend on it.
    await this.local.publishCancel(signal);
    const payload = this.wire.encodeCancel(signal);
    try {
      // Ids too long for a payload: the row carries them, and every instance re-reads the table.
      await this.rows.save(
        signal,
        this.cancelTtlMs,
        this.wire.cancelChannel,
        this.wire.fits(payload) ? payload : this.wire.encodeResync(),
      );
    } catch (error) {
      this.logger.warn('postgres unavailable, cancel delivered on this instance only', {
        threadId,
        runId,
        error: String(error),
      });
    }
  }

  onCancel(threadId: string, runId: string, handler: (signal?: CancelSignal) => void): Unsubscribe {
    const release = this.subscriptions.add(threadId, runId);
    const unsubscribe = this.local.onCancel(threadId, runId, handler);
    let subscribed = true;
    // A cancel published before this instance listened (or while it was away) is in the table.
    void this.rows.find([{ threadId, runId }]).then(
      (found) => {
        if (subscribed && found.length > 0 && !this.closed)
          void this.local.publishCancel(found[0]!);
      },
      () => undefined,
    );
    return () => {
      subscribed = false;
      unsubscribe();
      release();
    };
  }

  async publishRunEnded(signal: RunEndedSignal): Promise<void> {
    const { threadId, runId } = signal;
    await this.local.publishRunEnded(signal);
    try {
      // Runs that end together (a shutdown ends many) share one statement.
      await this.runEnds.submit(signal);
    } catch (error) {
      this.logger.warn('postgres unavailable, run end announced on this instance only', {
        threadId,
        runId,
        error: String(error),
      });
    }
  }

  onRunEnded(
    threadId: string,
    runId: string,
    handler: (signal: RunEndedSignal) => void,
  ): Unsubscribe {
    return this.local.onRunEnded(threadId, runId, handler);
  }

  onAnyRunEnded(handler: (signal: RunEndedSignal) => void): Unsubscribe {
    return this.local.onAnyRunEnded(handler);
  }

  /**
   * Tells every instance that these runs' logs grew (the nudge that wakes their followers), in
   * one statement. Best effort: a nudge lost to an outage is made up by the followers' liveness checks.
   */
  async publishLogAppended(signals: readonly LogAppendedSignal[]): Promise<void> {
    const payloads = signals
      .map((signal) => this.wire.encodeLogAppended(signal))
      .filter((payload) => this.wire.fits(payload));
    if (payloads.length === 0 || this.closed) return;
    try {
      await this.query('SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload', [
        this.wire.logChannel,
        payloads,
      ]);
    } catch {
      // The followers' liveness checks read the log anyway.
    }
  }

  /** Listens for log nudges of every run, on every instance (this one's included). */
  onLogAppended(handler: (signal: LogAppendedSignal) => void): Unsubscribe {
    this.logAppends.on('appended', handler);
    return () => this.logAppends.off('appended', handler);
  }

  /** Whether the listening connection is up, and since when. */
  health(): SignalBusHealth & { transport: 'postgres'; since: string } {
    return {
      transport: 'postgres',
      connected: this.link.connected && !this.closed,
      since: this.link.since,
    };
  }

  private receive(channel: string, payload: string): void {
    // This instance's own notifications come back too and are applied again, as on Redis: every
    // instance then applies cancels and run ends in the order PostgreSQL committed them.
    const notified: Notified | undefined = this.wire.decode(channel, payload);
    if (!notified) return void this.logger.warn('unreadable signal ignored', { channel });
    if (notified.kind === 'cancel') void this.local.publishCancel(notified.signal);
    else if (notified.kind === 'run-ended') void this.local.publishRunEnded(notified.signal);
    else if (notified.kind === 'log') this.logAppends.emit('appended', notified.signal);
    else void this.resync();
  }

  /** Forgets the ended runs' cancels and announces their ends; a run whose ids do not fit a payload is found by the store's sweep instead. */
  private async announceRunEnds(signals: readonly RunEndedSignal[]): Promise<BatchOutcome<void>[]> {
    const payloads = signals.map((signal) => this.wire.encodeRunEnded(signal));
    const fitting = payloads.filter((payload) => this.wire.fits(payload));
    if (fitting.length < payloads.length)
      this.logger.warn(
        'run ids too long for a notification, run end announced on this instance only',
      );
    await this.rows.forget(signals, this.wire.runEndedChannel, fitting);
    return signals.map(() => ({ ok: true as const, value: undefined }));
  }

  /** Delivers the cancels of this instance's runs that the table holds: after a reconnect, or a cancel too long to notify. */
  private async resync(): Promise<void> {
    try {
      for (const runs of this.subscriptions.batches(RESYNC_BATCH)) {
        for (const run of await this.rows.find(runs)) await this.local.publishCancel(run);
      }
    } catch (error) {
      // Mostly the database went away again: the next reconnect tries again.
      this.logger.warn('postgres signal re-sync failed', {
        runs: this.subscriptions.size,
        error: String(error),
      });
    }
  }
}
