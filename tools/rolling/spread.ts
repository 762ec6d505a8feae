import { quantile } from '../bench/bench-stats';

/** p50, p95 and maximum of some durations, in ms, and how many there were. */
export interface Spread {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

/**
 * The spread of `values` (in any order); all zeros when there are none, so a report of a
 * rollout that disturbed nothing still prints.
 *
 * @example
 * spread([300, 100, 200]); // { count: 3, p50: 200, p95: 290, max: 300 }
 */
export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return { count: 0, p50: 0, p95: 0, max: 0 };
  return {
    count: sorted.length,
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: sorted[sorted.length - 1],
  };
}
