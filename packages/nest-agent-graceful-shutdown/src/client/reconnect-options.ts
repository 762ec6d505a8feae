import { resolveOptionGroup, uniformOptionGroup } from '../options/option-group.js';
import { millisecondsAtLeastZero } from '../options/option-rules.js';

/**
 * How the client keeps following a run whose connection was lost. Every value is in
 * milliseconds.
 *
 * @example
 * const reconnect: ReconnectOptions = { timeoutMs: 120_000, maxDelayMs: 10_000 };
 */
export interface ReconnectOptions {
  /**
   * How long the client keeps trying to get the run's stream back, from the moment it lost it,
   * until a new event (or a heartbeat of a live stream) arrives; then the run fails with a
   * `ReconnectTimeoutError`. @default 60000
   */
  timeoutMs?: number;
  /**
   * The wait before the second attempt of an outage (the first is made at once, except after a
   * POST's `RUN_ERROR` `RUN_INTERRUPTED`; after a join's, at once too). @default 250
   */
  initialDelayMs?: number;
  /** The longest wait between two attempts; the wait doubles from `initialDelayMs` up to it. @default 5000 */
  maxDelayMs?: number;
  /**
   * How long a connection may stay silent (no byte at all, heartbeats included) before it is
   * treated as dropped and the client re-joins; 0: never. Keep it above the server's heartbeat
   * period. @default 45000
   */
  idleTimeoutMs?: number;
}

/** `ReconnectOptions` with every default applied. */
export type ResolvedReconnectOptions = Required<ReconnectOptions>;

/** The defaults of `ReconnectOptions`, in milliseconds. */
export const RECONNECT_DEFAULTS: ResolvedReconnectOptions = Object.freeze({
  timeoutMs: 60_000,
  initialDelayMs: 250,
  maxDelayMs: 5_000,
  idleTimeoutMs: 45_000,
});

/** Every reconnect option: a finite number of milliseconds ≥ 0, refused with a `TypeError`. */
const RECONNECT_OPTIONS = uniformOptionGroup<ReconnectOptions>(RECONNECT_DEFAULTS, {
  ...millisecondsAtLeastZero(),
  error: TypeError,
});

/**
 * Applies the defaults and checks the values (each a finite number ≥ 0).
 *
 * @example
 * resolveReconnectOptions({ timeoutMs: 1_000 }); // { timeoutMs: 1000, initialDelayMs: 250, maxDelayMs: 5000, idleTimeoutMs: 45000 }
 */
export function resolveReconnectOptions(options: ReconnectOptions = {}): ResolvedReconnectOptions {
  return resolveOptionGroup('reconnect', RECONNECT_OPTIONS, options);
}
