import type { EventLogger } from '../logging/event-logger.js';
import { LinkState } from '../signals/link-state.js';

/**
 * Whether the PostgreSQL signal bus listens, and since when. Each change is logged once,
 * however many reconnect attempts lie between, and can be waited for.
 */
export class PostgresLinkState extends LinkState {
  private everConnected = false;

  constructor(private readonly logger: EventLogger) {
    super();
  }

  /** The listening connection is up (first time, or again). */
  up(): void {
    if (!this.change(true)) return;
    this.logger.log(
      this.everConnected ? 'postgres signal connection restored' : 'postgres signals connected',
    );
    this.everConnected = true;
  }

  /** The listening connection was lost, or an attempt failed; only the change from up is an outage to log. */
  down(error: Error): void {
    if (this.change(false))
      this.logger.warn('postgres signal connection lost, signals stay on this instance', {
        error: error.message,
      });
  }
}
