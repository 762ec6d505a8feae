import { performance } from 'node:perf_hooks';
import type { LoggerService } from '@nestjs/common';

/** Order statistics of a set of samples, in the samples' unit. */
export interface Summary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

/** The value below which a fraction `q` of the sorted samples lie (linear interpolation). */
export function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

/** Mean, median, tail quantiles and maximum; throws on no samples rather than reporting NaN. */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error('no samples to summarize');
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return {
    count: sorted.length,
    mean,
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1],
  };
}

/** Runs `work` and says how long it took, in milliseconds, with what it resolved to. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const startedAt = performance.now();
  const value = await work();
  return { value, ms: performance.now() - startedAt };
}

/** Milliseconds with a fixed number of decimals, e.g. `1.234 ms`. */
export function formatMs(ms: number, decimals = 2): string {
  return `${ms.toFixed(decimals)} ms`;
}

/** `pass` or a clearly marked miss, so a missed target is easy to find in the output. */
export function verdict(met: boolean): string {
  return met ? 'pass' : 'TARGET MISSED';
}

/** A logger that drops everything: connection logs would interleave with the tables. */
export const SILENT_LOGGER: LoggerService = {
  log: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** The message of an error, whatever was thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
