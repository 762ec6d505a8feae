import { EventEmitter } from 'node:events';
import type { LoggerService } from '@nestjs/common';

/**
 * Whether the PostgreSQL signal bus listens, and since when. Each change is logged once,
 * however many reconnect attempts lie between, and can be waited for.
 */
export class PostgresLinkState {
  private readonly changes = new EventEmitter();
  private everConnected = false;
  /** The state last reported: what `health()` readers and waiters saw change. */
  connected = false;
  /** ISO time of the last change of `connected`. */
  since = new Date().toISOString();

  constructor(private readonly logger: LoggerService) {}

  /** The listening connection is up (first time, or again). */
  up(): void {
    if (!this.set(true)) return;
    this.logger.log({ msg: this.everConnected ? 'postgres signal connection restored' : 'postgres signals connected' });
    this.everConnected = true;
  }

  /** The listening connection was lost, or an attempt failed; only the change from up is an outage to log. */
  down(error: Error): void {
    if (this.set(false)) this.logger.warn({ msg: 'postgres signal connection lost, signals stay on this instance', error: error.message });
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

  /** Wakes every waiter, e.g. when the bus closes before PostgreSQL came up. */
  release(): void {
    this.changes.emit('change');
  }

  private set(connected: boolean): boolean {
    if (connected === this.connected) return false;
    this.connected = connected;
    this.since = new Date().toISOString();
    this.changes.emit('change');
    return true;
  }
}
