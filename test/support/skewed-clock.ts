import { resolve } from 'node:path';

const PRELOAD = resolve(__dirname, '../fixtures/skewed-clock.js');

/** One minute, the skew the multi-instance suites give one of their instances. */
export const MINUTE_MS = 60_000;

/**
 * Environment that starts a service with its wall clock `skewMs` milliseconds off (ahead when
 * positive), as on a machine whose clock drifted: `Date.now()` and `new Date()` move, the
 * monotonic clock and timers do not. Merge it into one instance's `env` of a multi-instance
 * suite: lease expiry is decided on the database's clock, so nothing may change.
 */
export function skewedClock(skewMs: number): Record<string, string> {
  return { NODE_OPTIONS: `--require ${PRELOAD}`, CLOCK_SKEW_MS: String(skewMs) };
}
