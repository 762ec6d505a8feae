import { type LoggerService } from '@nestjs/common';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';
import type {
  LoggedEvent,
  RunEventLog,
  RunLogAppendOptions,
  RunLogKey,
  RunLogListener,
} from '../contracts/run-event-log.interface.js';
import { RedisClusterLogFollower } from './redis-cluster-log-follower.js';
import {
  isClusterConnection,
  openSignalRedis,
  quitSignalRedis,
  type RedisClient,
  type RedisConnectionOptions,
} from './redis-connection.js';
import { RedisLinkState } from './redis-link-state.js';
import { RedisLogFollower } from './redis-log-follower.js';
import { EventLogFencedError } from '../errors/event-log-fenced.error.js';
import { EventLogGapError } from '../errors/event-log-gap.error.js';
import {
  APPEND_SCRIPT,
  CLAIM_SCRIPT,
  FENCED_REPLY,
  GAP_REPLY,
  RedisLogWire,
  type StreamEntry,
} from './redis-log-wire.js';
import { EventLogger } from '../logging/event-logger.js';

/** How long `connect()` waits for Redis before the app boots without it, in milliseconds. */
const CONNECT_WAIT_MS = 3_000;

/** Settings of a {@link RedisRunEventLog}. */
export interface RedisRunEventLogOptions extends RedisConnectionOptions {
  /**
   * Put before every key, so several apps can share one Redis.
   * @default 'agents:'
   */
  keyPrefix?: string;
  /** Where connection changes and failing listeners are logged. @default Nest's `Logger` with the context `RunEventLog` */
  logger?: LoggerService;
  /**
   * On a Redis Cluster only: how often the followed logs are read, in milliseconds (a cluster
   * blocks a read on one slot only, so follows poll, one `XREAD` per slot group).
   * @default 100
   */
  followPollMs?: number;
}

/** The command connection, with the append script defined on it (sent by its SHA once Redis knows it). */
type LogCommands = RedisClient & {
  appendRunEvents(
    key: string,
    writerKey: string,
    writer: string,
    contiguous: '0' | '1',
    ...idsAndEvents: string[]
  ): Promise<number>;
  claimRunLog(key: string, writerKey: string, writer: string): Promise<StreamEntry[]>;
};

/**
 * Run event logs in Redis Streams, shared by every instance: one stream per run (key
 * `<prefix>log:<threadId>:<runId>`, on a cluster `<prefix>log:{<threadId>:<runId>}` so the
 * run's keys share a slot), an event with id `n` at entry `n-0`. Appends are one atomic
 * single-slot script, idempotent for ids already stored. On a standalone Redis each instance
 * holds one command connection, and one blocking connection that serves all its follows
 * (opened at the first follow); on a cluster, one connection per node, and follows read one
 * slot group per command. Commands fail fast while Redis is away; the connections come back
 * by themselves, and follows resume from where each follower was.
 *
 * @example
 * const log = new RedisRunEventLog({ url: process.env.REDIS_URL! });
 * const clustered = new RedisRunEventLog({ url: 'redis://node-1:6379', cluster: true });
 * await log.connect();
 */
export class RedisRunEventLog implements RunEventLog {
  private readonly wire: RedisLogWire;
  private readonly logger: EventLogger;
  private readonly commands: LogCommands;
  private readonly follower: RedisLogFollower | RedisClusterLogFollower;
  private readonly link: RedisLinkState;
  private closed = false;
  private closing?: Promise<void>;

  constructor(options: RedisRunEventLogOptions) {
    const cluster = isClusterConnection(options);
    this.wire = new RedisLogWire(options.keyPrefix ?? 'agents:', cluster);
    this.logger = new EventLogger(options.logger ?? 'RunEventLog');
    const commands = openSignalRedis(options);
    commands.defineCommand('appendRunEvents', { numberOfKeys: 2, lua: APPEND_SCRIPT });
    commands.defineCommand('claimRunLog', { numberOfKeys: 2, lua: CLAIM_SCRIPT });
    this.commands = commands as LogCommands;
    this.link = new RedisLinkState(this.logger, 'run events wait for it');
    commands.on('error', (error: unknown) => this.link.noteError(error));
    commands.on('ready', () => this.link.set(true, this.closed));
    commands.on('close', () => this.link.set(false, this.closed));
    this.follower = cluster
      ? new RedisClusterLogFollower({
          commands,
          wire: this.wire,
          logger: this.logger,
          pollMs: options.followPollMs,
        })
      : new RedisLogFollower({
          connection: options,
          commands,
          wire: this.wire,
          logger: this.logger,
        });
  }

  /** Starts the command connection; resolves once it is ready, or after a few seconds if Redis is down. */
  async connect(): Promise<void> {
    if (this.closed) return;
    // A failed first attempt is retried by the retry strategy, like any later outage.
    if (this.commands.status === 'wait') this.commands.connect().catch(() => undefined);
    if (!this.link.connected) await this.link.waitForChange(CONNECT_WAIT_MS);
    if (!this.link.connected && !this.closed) this.link.warnUnavailable();
  }

  /** Ends every follow and closes both connections. Safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  async append(
    run: RunLogKey,
    events: readonly LoggedEvent[],
    writer?: string,
    options?: RunLogAppendOptions,
  ): Promise<void> {
    if (events.length === 0) return;
    const contiguous = options?.contiguous ? '1' : '0';
    try {
      await this.commands.appendRunEvents(
        this.wire.logKey(run),
        this.wire.writerKey(run),
        writer ?? '',
        contiguous,
        ...this.wire.encode(events),
      );
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      if (error.message.startsWith(FENCED_REPLY))
        throw new EventLogFencedError(run.threadId, run.runId);
      if (error.message.startsWith(`${GAP_REPLY} `))
        throw new EventLogGapError(
          run.threadId,
          run.runId,
          Number(error.message.slice(GAP_REPLY.length + 1)),
        );
      throw error;
    }
  }

  async claim(run: RunLogKey, writer: string): Promise<LoggedEvent | null> {
    const entries = await this.commands.claimRunLog(
      this.wire.logKey(run),
      this.wire.writerKey(run),
      writer,
    );
    return entries.length ? this.wire.decode(entries)[0] : null;
  }

  async read(run: RunLogKey, afterId: number, limit: number): Promise<LoggedEvent[] | null> {
    const key = this.wire.logKey(run);
    const entries =
      limit >= 1
        ? await this.commands.xrange(key, this.wire.after(afterId), '+', 'COUNT', Math.floor(limit))
        : [];
    if (entries.length > 0) return this.wire.decode(entries);
    // An empty range: nothing after `afterId` yet, or no log at all.
    return (await this.commands.exists(key)) ? [] : null;
  }

  async last(run: RunLogKey): Promise<LoggedEvent | null> {
    const entries = await this.commands.xrevrange(this.wire.logKey(run), '+', '-', 'COUNT', 1);
    return entries.length ? this.wire.decode(entries)[0] : null;
  }

  follow(run: RunLogKey, afterId: number, listener: RunLogListener): Unsubscribe {
    return this.follower.follow(run, afterId, listener);
  }

  async retain(run: RunLogKey, retentionMs: number): Promise<void> {
    const ms = Math.max(0, Math.ceil(retentionMs));
    await this.commands
      .multi()
      .pexpire(this.wire.logKey(run), ms)
      .pexpire(this.wire.writerKey(run), ms)
      .exec();
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    this.link.release();
    await this.follower.close();
    await quitSignalRedis(this.commands);
  }
}
