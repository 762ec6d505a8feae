import type { EventLogger } from '../logging/event-logger.js';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';
import type { RunLogKey, RunLogListener } from '../contracts/run-event-log.interface.js';
import { LoopNudge } from '../streams/loop-nudge.js';
import type { RedisClient } from './redis-connection.js';
import { groupBySlot } from './redis-key-slot.js';
import type { RedisLogWire } from './redis-log-wire.js';
import {
  deliverFollowRead,
  FOLLOW_IDLE_MS,
  FOLLOW_READ_COUNT,
  FOLLOW_RETRY_MS,
  type FollowReadReply,
} from './follow-read.js';
import { RunLogFollowers } from './run-log-followers.js';

/** How often the followed logs are read while anything is followed, in milliseconds. */
export const CLUSTER_FOLLOW_POLL_MS = 100;

/** What a {@link RedisClusterLogFollower} works with. */
export interface RedisClusterLogFollowerOptions {
  /** The log's command connection (a cluster client); the reads go through it. */
  commands: RedisClient;
  wire: RedisLogWire;
  logger: EventLogger;
  /** How often the followed logs are read, in milliseconds. @default CLUSTER_FOLLOW_POLL_MS */
  pollMs?: number;
}

/**
 * Every follow of one log instance on a Redis Cluster. A cluster answers a multi-key command
 * only for keys of one slot, and a blocked read holds its node connection, so the standalone
 * follower's one blocking `XREAD` over every log cannot be had: blocking per slot would take
 * a connection per slot followed, about one per run. Instead, the followed logs are grouped by
 * slot and each round sends one non-blocking `XREAD … STREAMS k1…kn` per slot group, through
 * the log's command connections (one per node), every `pollMs` while anything is followed and
 * at once when a follow starts. A full page is read again without waiting. A failed round (a
 * node away, a failover) is retried; each follower resumes from its own cursor.
 */
export class RedisClusterLogFollower {
  private readonly followers: RunLogFollowers;
  private readonly nudge = new LoopNudge();
  private readonly pollMs: number;
  private running?: Promise<void>;
  private closed = false;
  private failing = false;

  constructor(private readonly options: RedisClusterLogFollowerOptions) {
    this.followers = new RunLogFollowers(options.logger);
    this.pollMs = options.pollMs ?? CLUSTER_FOLLOW_POLL_MS;
  }

  /** Delivers the run's events after `afterId`, as they are appended, until unsubscribed. */
  follow(run: RunLogKey, afterId: number, listener: RunLogListener): Unsubscribe {
    if (this.closed) return () => undefined;
    const unsubscribe = this.followers.add(this.options.wire.logKey(run), run, afterId, listener);
    this.running ??= this.loop();
    this.nudge.nudge();
    return unsubscribe;
  }

  /** Stops the loop; the connections are the log's. Safe to call more than once. */
  async close(): Promise<void> {
    this.closed = true;
    this.followers.clear();
    this.nudge.nudge();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.closed) {
      if (this.followers.size === 0) await this.nudge.wait(FOLLOW_IDLE_MS);
      else if (this.options.commands.status !== 'ready') await this.nudge.wait(FOLLOW_RETRY_MS);
      else {
        const more = await this.readRound();
        if (!more && !this.closed)
          await this.nudge.wait(this.failing ? FOLLOW_RETRY_MS : this.pollMs);
      }
    }
  }

  /** One read per slot group, handed to the followers; true when a page came back full. */
  private async readRound(): Promise<boolean> {
    const cursors = this.followers.cursors();
    const groups = groupBySlot(cursors.keys(), (key) => key);
    const replies = await Promise.allSettled(groups.map((keys) => this.read(keys, cursors)));
    let more = false;
    let failure: unknown;
    for (const reply of replies) {
      if (reply.status === 'rejected') failure = reply.reason;
      else
        more = deliverFollowRead(this.followers, this.options.wire, reply.value, cursors) || more;
    }
    if (failure !== undefined && !this.closed && !this.failing) {
      this.options.logger.warn('run log follow read failed, retrying', { error: String(failure) });
    }
    this.failing = failure !== undefined;
    return more;
  }

  private read(keys: string[], cursors: Map<string, number>): Promise<FollowReadReply> {
    const ids = keys.map((key) => this.options.wire.cursor(cursors.get(key)!));
    return this.options.commands.xread(
      'COUNT',
      FOLLOW_READ_COUNT,
      'STREAMS',
      ...keys,
      ...ids,
    ) as Promise<FollowReadReply>;
  }
}
