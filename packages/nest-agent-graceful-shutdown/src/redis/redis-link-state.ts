import type { EventLogger } from '../logging/event-logger.js';
import { LinkState } from '../signals/link-state.js';

/**
 * Whether a Redis client (the signal bus, the run event log) can reach Redis, and since when.
 * Each change is logged once, however many reconnect attempts lie between, and can be waited for.
 */
export class RedisLinkState extends LinkState {
  private everConnected = false;
  private lastError?: string;

  /**
   * @param outage what the client does while Redis is away, as the outage logs say it, e.g.
   * `signals stay on this instance`.
   */
  constructor(
    private readonly logger: EventLogger,
    private readonly outage = 'signals stay on this instance',
  ) {
    super();
  }

  /** Keeps the latest connection error, to explain the next 'lost' log. */
  noteError(error: unknown): void {
    this.lastError = error instanceof Error ? error.message : String(error);
  }

  /**
   * Records whether the client's connections are up (and, for the bus, its channels subscribed).
   * @param quiet set while closing: an intended disconnect is not an outage.
   */
  set(connected: boolean, quiet = false): void {
    if (!this.change(connected) || quiet) return;
    if (!connected)
      this.logger.warn(`redis connection lost, ${this.outage}`, { error: this.lastError });
    else this.logger.log(this.everConnected ? 'redis connection restored' : 'redis connected');
    this.everConnected ||= connected;
  }

  /** Logs, once, that the client boots without Redis. */
  warnUnavailable(): void {
    this.logger.warn(`redis unavailable, ${this.outage} until it is back`, {
      error: this.lastError,
    });
  }
}
