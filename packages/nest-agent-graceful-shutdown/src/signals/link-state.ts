import { EventEmitter } from 'node:events';

/**
 * Whether a connection a cross-instance transport depends on is up, and since when; each
 * change can be waited for. The transports' own states (Redis, PostgreSQL) add how they log it.
 */
export class LinkState {
  private readonly changes = new EventEmitter();
  /** The state last reported: what `health()` readers and waiters saw change. */
  connected = false;
  /** ISO time of the last change of `connected`. */
  since = new Date().toISOString();

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

  /** Wakes every waiter, e.g. when the transport closes before its connection came up. */
  release(): void {
    this.changes.emit('change');
  }

  /** Records `connected` and wakes the waiters; false when it was already so. */
  protected change(connected: boolean): boolean {
    if (connected === this.connected) return false;
    this.connected = connected;
    this.since = new Date().toISOString();
    this.changes.emit('change');
    return true;
  }
}
