import { type LoggerService } from '@nestjs/common';
import { CancelSubscriptions } from '../signals/cancel-subscriptions.js';
import { InProcessSignalBus } from '../signals/in-process-signal-bus.js';
import {
  isClusterConnection,
  openSignalRedis,
  quitSignalRedis,
  type RedisClient,
  type RedisConnectionOptions,
} from './redis-connection.js';
import { rememberedCancels } from './remembered-cancels.js';
import { throwOnFailure } from './redis-transaction.js';
import { ClusterNodeSubscriber } from './cluster-node-subscriber.js';
import { RedisLinkState } from './redis-link-state.js';
import { RedisSignalWire } from './redis-signal-wire.js';
import type {
  CancelSignal,
  RunEndedSignal,
  SignalBus,
  SignalBusHealth,
  Unsubscribe,
} from '../contracts/signal-bus.interface.js';
import { EventLogger } from '../logging/event-logger.js';
import type { Cluster, Redis } from 'ioredis';

/** How long `connect()` waits for Redis before the app boots without it. */
const CONNECT_WAIT_MS = 3_000;
/** Keys per MGET when re-syncing, so one command stays small however many runs listen. */
const RESYNC_BATCH = 500;

/** Settings of a {@link RedisSignalBus}. */
export interface RedisSignalBusOptions extends RedisConnectionOptions {
  /**
   * Put before every key and channel, so several apps can share one Redis.
   * @default 'agents:'
   */
  keyPrefix?: string;
  /**
   * How long a published cancel is remembered (Redis key TTL and local memory), in milliseconds.
   * @default 60000
   */
  cancelTtlMs?: number;
  /** Where connection changes and fallbacks are logged. @default Nest's `Logger` with the context `SignalBus` */
  logger?: LoggerService;
}

/**
 * Signals across instances through Redis. Each instance holds one subscriber connection on
 * two fixed channels and one command connection, so its Redis load does not grow with its
 * runs: subscriptions are local, and keys are read only when a lost subscriber connection
 * is back. While Redis is down, signals still reach the runs of this instance.
 *
 * On a Redis Cluster (`cluster: true`, or a `Cluster` client) the command connection is one per
 * node, cancel keys are hash-tagged per run (`<prefix>cancel:{<threadId>:<runId>}`) and read
 * one slot group per `MGET`. The channels stay classic pub/sub, which a cluster broadcasts to
 * every node, so the subscriber holds one connection to any one node and moves when it goes
 * (see `ClusterNodeSubscriber`). Each instance needs every cancel and run end: sharded
 * channels (`SSUBSCRIBE`, Redis 7) would save nothing, and would take a connection per shard.
 */
export class RedisSignalBus implements SignalBus {
  private readonly local: InProcessSignalBus;
  private readonly subscriptions = new CancelSubscriptions();
  private readonly wire: RedisSignalWire;
  private readonly cancelTtlMs: number;
  private readonly logger: EventLogger;
  private readonly link: RedisLinkState;
  private readonly commands: RedisClient;
  private readonly subscriber: Redis | ClusterNodeSubscriber;
  private subscribed = false;
  private closed = false;
  private closing?: Promise<void>;

  constructor(options: RedisSignalBusOptions) {
    this.cancelTtlMs = options.cancelTtlMs ?? 60_000;
    this.local = new InProcessSignalBus(this.cancelTtlMs);
    const cluster = isClusterConnection(options);
    this.wire = new RedisSignalWire(options.keyPrefix ?? 'agents:', cluster);
    this.logger = new EventLogger(options.logger ?? 'SignalBus');
    this.link = new RedisLinkState(this.logger);
    this.commands = openSignalRedis(options);
    // Resubscribed by hand, so that the re-sync runs only once the channels are live again.
    this.subscriber = cluster
      ? new ClusterNodeSubscriber(this.commands as Cluster, { autoResubscribe: false })
      : (openSignalRedis(options, { autoResubscribe: false }) as Redis);
    this.commands.on('ready', () => void this.resync());
    this.subscriber.on('ready', () => void this.subscribe());
    this.subscriber.on('close', () => (this.subscribed = false));
    this.subscriber.on('message', (channel: string, payload: string) =>
      this.receive(channel, payload),
    );
    for (const connection of [this.commands, this.subscriber]) {
      connection.on('error', (error: unknown) => this.link.noteError(error));
      connection.on('ready', () => this.updateLink());
      connection.on('close', () => this.updateLink());
    }
  }

  /** Starts both connections; resolves once they are ready, or after a few seconds if Redis is down. */
  async connect(): Promise<void> {
    if (this.closed) return;
    for (const connection of [this.commands, this.subscriber]) {
      // A failed first attempt is retried by the retry strategy, like any later outage.
      if (connection.status === 'wait') connection.connect().catch(() => undefined);
    }
    if (!this.link.connected) await this.link.waitForChange(CONNECT_WAIT_MS);
    if (!this.link.connected && !this.closed) this.link.warnUnavailable();
  }

  /** Closes both connections. Safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  async publishCancel(signal: CancelSignal): Promise<void> {
    const { threadId, runId } = signal;
    // The run may be on this instance: it need not wait for Redis, nor depend on it.
    await this.local.publishCancel(signal);
    try {
      const transaction = this.commands
        .multi()
        .set(
          this.wire.cancelKey(threadId, runId),
          this.wire.encodeCancel(signal),
          'PX',
          this.cancelTtlMs,
        )
        .publish(this.wire.cancelChannel, this.wire.encodeCancel(signal));
      throwOnFailure(await transaction.exec());
    } catch (error) {
      this.logger.warn('redis unavailable, cancel delivered on this instance only', {
        threadId,
        runId,
        error: String(error),
      });
    }
  }

  onCancel(threadId: string, runId: string, handler: (signal?: CancelSignal) => void): Unsubscribe {
    const release = this.subscriptions.add(threadId, runId);
    const unsubscribe = this.local.onCancel(threadId, runId, handler);
    return () => {
      unsubscribe();
      release();
    };
  }

  async publishRunEnded(signal: RunEndedSignal): Promise<void> {
    const { threadId, runId } = signal;
    await this.local.publishRunEnded(signal);
    try {
      const transaction = this.commands
        .multi()
        // A retry with the same run id is a new attempt: it must not find this run's cancel.
        .del(this.wire.cancelKey(threadId, runId))
        .publish(this.wire.runEndedChannel, this.wire.encodeRunEnded(signal));
      throwOnFailure(await transaction.exec());
    } catch (error) {
      this.logger.warn('redis unavailable, run end announced on this instance only', {
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

  /** Whether both connections are up and subscribed, and since when. */
  health(): SignalBusHealth & { transport: 'redis'; since: string } {
    return { transport: 'redis', connected: this.link.connected, since: this.link.since };
  }

  private async subscribe(): Promise<void> {
    try {
      await this.subscriber.subscribe(this.wire.cancelChannel, this.wire.runEndedChannel);
    } catch (error) {
      // Without its channels the connection is of no use; a fresh one gets another try.
      this.link.noteError(error);
      if (!this.closed) this.subscriber.disconnect(true);
      return;
    }
    this.subscribed = true;
    this.updateLink();
    await this.resync();
  }

  /** Delivers the cancels published while the channels were not heard: the one time keys are read. */
  private async resync(): Promise<void> {
    if (!this.subscribed || this.commands.status !== 'ready') return;
    try {
      for (const batch of this.subscriptions.batches(RESYNC_BATCH)) {
        for (const run of await rememberedCancels(this.commands, this.wire, batch))
          await this.local.publishCancel(run);
      }
    } catch (error) {
      // Mostly a connection dropped meanwhile: its next 'ready' tries again.
      this.logger.warn('redis re-sync failed', {
        runs: this.subscriptions.size,
        error: String(error),
      });
    }
  }

  private receive(channel: string, payload: string): void {
    // This instance's own messages come back too, and are applied again on purpose: then
    // every instance applies cancels and run ends in Redis's order, the order that decided
    // the key, so a late cancel cannot outlive its run's end here while gone from Redis.
    // The handlers may run twice, which they must bear anyway (a stop is first-wins).
    const unreadable = () => this.logger.warn('unreadable signal ignored', { channel });
    if (channel === this.wire.cancelChannel) {
      const signal = this.wire.decodeCancel(payload);
      if (!signal) return unreadable();
      void this.local.publishCancel(signal);
    } else if (channel === this.wire.runEndedChannel) {
      const signal = this.wire.decodeRunEnded(payload);
      if (!signal) return unreadable();
      void this.local.publishRunEnded(signal);
    }
  }

  private updateLink(): void {
    this.link.set(!this.closed && this.subscribed && this.commands.status === 'ready', this.closed);
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    this.updateLink();
    this.link.release();
    await Promise.all([this.commands, this.subscriber].map(quitSignalRedis));
  }
}
