import { EventEmitter } from 'node:events';
import type { LoggerService } from '@nestjs/common';

/**
 * Whether a Redis client (the signal bus, the run event log) can reach Redis, and since when.
 * Each change is logged once, however many reconnect attempts lie between, and can be waited for.
 */
export class RedisLinkState {
  private readonly changes = new EventEmitter();
  private everConnected = false;
  private lastError?: string;
  /** The client's connections are up (and, for the bus, its channels subscribed). */
  connected = false;
  /** ISO time of the last change of `connected`. */
  since = new Date().toISOString();

  /**
   * @param outage what the client does while Redis is away, as the outage logs say it, e.g.
   * `signals stay on this instance`.
   */
  constructor(
    private readonly logger: LoggerService,
    private readonly outage = 'signals stay on this instance',
  ) {}

  /** Keeps the latest connection error, to explain the next 'lost' log. */
  noteError(error: unknown): void {
    this.lastError = error instanceof Error ? error.message : String(error);
  }

  /** @param quiet set while closing: an intended disconnect is not an outage. */
  set(connected: boolean, quiet = false): void {
    if (connected === this.connected) return;
    this.connected = connected;
    this.since = new Date().toISOString();
    this.changes.emit('change');
    if (quiet) return;
    if (!connected) this.logger.warn({ msg: `redis connection lost, ${this.outage}`, error: this.lastError });
    else this.logger.log({ msg: this.everConnected ? 'redis connection restored' : 'redis connected' });
    this.everConnected ||= connected;
  }

  /** Resolves at the next change, or after `timeoutMs` milliseconds. */
  waitForChange(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.changes.off('change', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.changes.on('change', done);
    });
  }

  /** Wakes every waiter, e.g. when the bus closes before Redis came up. */
  release(): void {
    this.changes.emit('change');
  }

  /** Logs, once, that the client boots without Redis. */
  warnUnavailable(): void {
    this.logger.warn({ msg: `redis unavailable, ${this.outage} until it is back`, error: this.lastError });
  }
}
