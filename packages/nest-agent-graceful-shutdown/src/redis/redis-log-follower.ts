import type { EventLogger } from '../logging/event-logger.js';
import { randomUUID } from 'node:crypto';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';
import type { RunLogKey, RunLogListener } from '../contracts/run-event-log.interface.js';
import { LoopNudge } from '../streams/loop-nudge.js';
import {
  openSignalRedis,
  type RedisClient,
  type RedisConnectionOptions,
} from './redis-connection.js';
import type { RedisLogWire } from './redis-log-wire.js';
import {
  deliverFollowRead,
  FOLLOW_IDLE_MS,
  FOLLOW_READ_COUNT,
  FOLLOW_RETRY_MS,
  type FollowReadReply,
} from './follow-read.js';
import { RunLogFollowers } from './run-log-followers.js';
import type { Redis } from 'ioredis';

/**
 * How long one blocking read waits for new events, in milliseconds. It bounds how late a
 * change of the followed logs is seen when its wake-up could not be sent, and is the only
 * command a following instance sends while its runs are quiet.
 */
export const FOLLOW_BLOCK_MS = 5_000;
/** Slack past `FOLLOW_BLOCK_MS` before the client gives a read up as lost, in milliseconds. */
const READ_GRACE_MS = 2_000;
/** How long the wake stream outlives its last wake-up, in milliseconds, so a dead instance leaves nothing. */
const WAKE_TTL_MS = 60_000;

/** What a {@link RedisLogFollower} works with. */
export interface RedisLogFollowerOptions {
  /** Where its blocking connection goes (a standalone Redis); the URL is never logged. */
  connection: RedisConnectionOptions;
  /** The log's command connection, which sends the wake-ups. */
  commands: RedisClient;
  wire: RedisLogWire;
  logger: EventLogger;
}

/**
 * Every follow of one log instance, served by one blocking connection, whatever the number
 * of followers: a loop reads all followed logs at once (`XREAD BLOCK … STREAMS k1…kn`), each
 * after the lowest cursor of its followers. The read also watches a wake stream of this
 * instance: when a follow needs a log (or older events) the blocked read does not cover,
 * one entry added there ends the read at once, and the next one covers it. Unlike `CLIENT
 * UNBLOCK` this needs no `@dangerous` command, and it cannot miss: an entry added before the
 * read arrives ends it as well. A dropped connection abandons the read; the loop resumes from
 * the followers' cursors once Redis is back.
 */
export class RedisLogFollower {
  private readonly followers: RunLogFollowers;
  private readonly blocking: Redis;
  private readonly nudge = new LoopNudge();
  private readonly wakeKey: string;
  private wakeCursor = '0-0';
  /** The cursors of the read in progress, if any; `woken` once it was asked to end. */
  private reading?: { cursors: Map<string, number>; woken: boolean };
  private running?: Promise<void>;
  private closed = false;
  private failing = false;

  constructor(private readonly options: RedisLogFollowerOptions) {
    this.followers = new RunLogFollowers(options.logger);
    this.wakeKey = options.wire.wakeKey(randomUUID());
    this.blocking = openSignalRedis(options.connection, {
      // A read blocks on purpose: the command connections' timeout must not cut it short. The
      // client still gives it up `READ_GRACE_MS` after its BLOCK time, so no read hangs.
      commandTimeout: undefined,
      blockingTimeout: FOLLOW_BLOCK_MS + READ_GRACE_MS,
      blockingTimeoutGrace: READ_GRACE_MS,
      // After a reconnect the loop sends a fresh read; a stale one resent would block before it.
      autoResendUnfulfilledCommands: false,
    }) as Redis;
    this.blocking.on('error', () => undefined);
    this.blocking.on('ready', () => this.nudge.nudge());
  }

  /** Delivers the run's events after `afterId`, as they are appended, until unsubscribed. */
  follow(run: RunLogKey, afterId: number, listener: RunLogListener): Unsubscribe {
    if (this.closed) return () => undefined;
    const key = this.options.wire.logKey(run);
    const unsubscribe = this.followers.add(key, run, afterId, listener);
    this.running ??= this.loop();
    const from = this.reading?.cursors.get(key);
    if (!this.reading) this.nudge.nudge();
    else if (from === undefined || afterId < from) this.wake();
    return unsubscribe;
  }

  /** Stops the loop and drops its connection; safe to call more than once. */
  async close(): Promise<void> {
    this.closed = true;
    this.followers.clear();
    this.nudge.nudge();
    // No QUIT: it would wait behind the blocked read. Dropping the connection ends that read.
    this.blocking.disconnect();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.closed) {
      if (this.followers.size === 0) {
        await this.nudge.wait(FOLLOW_IDLE_MS);
      } else if (this.blocking.status !== 'ready') {
        if (this.blocking.status === 'wait') this.blocking.connect().catch(() => undefined);
        await this.nudge.wait(FOLLOW_RETRY_MS);
      } else {
        await this.readOnce();
      }
    }
  }

  /** One read of every followed log, handed to the followers; waits a little after a failure. */
  private async readOnce(): Promise<void> {
    const cursors = this.followers.cursors();
    let reply: FollowReadReply | 'dropped';
    try {
      reply = await this.read(cursors);
    } catch (error) {
      if (this.closed) return;
      if (!this.failing)
        this.options.logger.warn('run log follow read failed, retrying', { error: String(error) });
      this.failing = true;
      await this.nudge.wait(FOLLOW_RETRY_MS);
      return;
    }
    this.failing = false;
    if (reply !== 'dropped') this.deliver(reply, cursors);
  }

  /** The blocking read, or 'dropped' as soon as its connection closes (its reply would never come). */
  private async read(cursors: Map<string, number>): Promise<FollowReadReply | 'dropped'> {
    const keys = [...cursors.keys(), this.wakeKey];
    const ids = [
      ...[...cursors.values()].map((id) => this.options.wire.cursor(id)),
      this.wakeCursor,
    ];
    this.reading = { cursors, woken: false };
    try {
      return await new Promise((resolve, reject) => {
        const dropped = () => resolve('dropped');
        this.blocking.once('close', dropped);
        this.blocking
          .xread('COUNT', FOLLOW_READ_COUNT, 'BLOCK', FOLLOW_BLOCK_MS, 'STREAMS', ...keys, ...ids)
          .then(resolve, reject)
          .finally(() => this.blocking.off('close', dropped));
      });
    } finally {
      this.reading = undefined;
    }
  }

  /** Moves the wake cursor past the wake-ups read, and hands the logs read to their followers. */
  private deliver(reply: FollowReadReply, cursors: Map<string, number>): void {
    const wake = reply?.find(([key]) => key === this.wakeKey)?.[1];
    if (wake?.length) this.wakeCursor = wake[wake.length - 1][0];
    deliverFollowRead(this.followers, this.options.wire, reply, cursors);
  }

  /** Ends the read in progress by adding to the wake stream; at most once per read. */
  private wake(): void {
    if (!this.reading || this.reading.woken) return;
    this.reading.woken = true;
    this.options.commands
      .pipeline()
      .xadd(this.wakeKey, 'MAXLEN', '1', '*', 'w', '1')
      .pexpire(this.wakeKey, WAKE_TTL_MS)
      .exec()
      // Unsent, the change is still seen when the read times out, within FOLLOW_BLOCK_MS.
      .catch(() => undefined);
  }
}
