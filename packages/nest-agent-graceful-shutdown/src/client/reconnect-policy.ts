import type { ResolvedReconnectOptions } from './reconnect-options.js';
import type { ReconnectKind } from './resumable-http-agent-config.js';

/** The plan of one reconnect: its number within the outage and the wait before it, in milliseconds. */
export interface PlannedAttempt {
  attempt: number;
  delayMs: number;
}

/**
 * When to try again while a run's stream is lost. An outage starts with the first reconnect and
 * ends when the stream shows life (`progress`, `alive`); its deadline is `timeoutMs` after its
 * start. The first attempt is made at once (after `RUN_INTERRUPTED`: after `initialDelayMs`,
 * unless the run was read stopped already, as a join that ends with it), the next ones after a
 * doubling backoff from `initialDelayMs` to `maxDelayMs`, with equal jitter
 * (between half and all of it), or after the server's `Retry-After` when it gave one.
 *
 * @example
 * const policy = new ReconnectPolicy(resolveReconnectOptions());
 * const plan = policy.plan('dropped'); // { attempt: 1, delayMs: 0 }, or undefined past the deadline
 */
export class ReconnectPolicy {
  private deadline?: number;
  private attempts = 0;

  /** @param now the clock, in milliseconds. @param random a number in [0, 1) for the jitter. */
  constructor(
    private readonly options: ResolvedReconnectOptions,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  /** A new event arrived: the outage is over and the backoff starts again. */
  progress(): void {
    this.deadline = undefined;
    this.attempts = 0;
  }

  /** The stream is alive (a heartbeat): the outage is over, the backoff goes on. */
  alive(): void {
    this.deadline = undefined;
  }

  /**
   * Plans the next attempt. `retryAfterMs` is the server's `Retry-After`, in milliseconds.
   * `atOnce`: no `initialDelayMs` floor after `RUN_INTERRUPTED` (the run was read already
   * stopped and saved, not stopped by a server on its way down). Returns `undefined` when the
   * wait would pass the outage's deadline.
   */
  plan(kind: ReconnectKind, retryAfterMs?: number, atOnce = false): PlannedAttempt | undefined {
    const now = this.now();
    this.deadline ??= now + this.options.timeoutMs;
    this.attempts++;
    let delayMs = retryAfterMs ?? (this.attempts === 1 ? 0 : this.backoff(this.attempts - 1));
    if (kind === 'interrupted' && !atOnce) delayMs = Math.max(delayMs, this.options.initialDelayMs);
    if (now + delayMs > this.deadline) return undefined;
    return { attempt: this.attempts, delayMs };
  }

  /** Whether an outage is open and its deadline has passed. */
  expired(): boolean {
    return this.deadline !== undefined && this.now() >= this.deadline;
  }

  /**
   * How long a connection may stay silent now, in milliseconds (0: without limit): the idle
   * timeout, and during an outage no later than its deadline.
   */
  silenceMs(): number {
    const idle = this.options.idleTimeoutMs;
    if (this.deadline === undefined) return idle;
    const remaining = Math.max(1, this.deadline - this.now());
    return idle > 0 ? Math.min(idle, remaining) : remaining;
  }

  private backoff(failures: number): number {
    const base = Math.min(
      this.options.maxDelayMs,
      this.options.initialDelayMs * 2 ** (failures - 1),
    );
    return Math.round(base / 2 + (this.random() * base) / 2);
  }
}
