import { fitLifeSlope, type SlopeFit } from './slope-fit';
import type { HeapAfterGc, SoakSample } from './soak-sample';

/** The fitted slopes: RSS and heap in MB, active handles in handles. The ones judged are measured at the same point of the collection cycle. */
export interface SoakFits {
  /** Judged: the kernel's count of the process's memory, in the 10 s after each full collection (its trough). */
  rssAfterGcMb: SlopeFit;
  /** Shown, not judged: RSS at any moment rises and falls with V8's heap between full collections (200 MB and more here). */
  rssMb: SlopeFit;
  /** Judged: what the JS heap still holds after each full collection. */
  heapAfterGcMb: SlopeFit;
  /** Judged: `nodejs_active_handles_total`. */
  handles: SlopeFit;
  /** Shown, not judged: heap used at any moment swings with the collections (hundreds of MB a minute here), far past any threshold. */
  heapUsedMb: SlopeFit;
}

/** The fits that fail the soak when growing. */
export const JUDGED_FITS = ['rssAfterGcMb', 'heapAfterGcMb', 'handles'] as const;

/** After a full collection, how long the lowest RSS is looked for, in ms: the kernel gets the freed pages back soon after. */
const RSS_AFTER_GC_WINDOW_MS = 10_000;

/**
 * The lowest RSS sampled in the {@link RSS_AFTER_GC_WINDOW_MS} after each full collection of
 * the same life, in MB, at the collection's time; collections without such a sample are left out.
 *
 * @example
 * rssAfterGc(samples, gcs); // [{ atMs: 130_000, life: 1, afterMb: 212.4 }, …]
 */
export function rssAfterGc(
  samples: readonly SoakSample[],
  gcs: readonly HeapAfterGc[],
): HeapAfterGc[] {
  return gcs.flatMap((gc) => {
    const after = samples.filter(
      (s) =>
        s.life === gc.life &&
        s.rssBytes !== undefined &&
        s.atMs >= gc.atMs &&
        s.atMs <= gc.atMs + RSS_AFTER_GC_WINDOW_MS,
    );
    return after.length
      ? [
          {
            atMs: gc.atMs,
            life: gc.life,
            afterMb: Math.min(...after.map((s) => (s.rssBytes as number) / MB)),
          },
        ]
      : [];
  });
}

const MB = 1024 * 1024;
/** Handles come and go whole, with each connection: 1% of a mean of about 30 is under one handle a minute, so the threshold is at least this. */
const HANDLES_FLOOR_PER_MIN = 0.5;

/**
 * Fits RSS and heap after full collections, handles, RSS and heap used against time, per instance life
 * after `warmupMin` minutes of it (see {@link fitLifeSlope}); `lifeStartsMin` says when each life
 * began serving, in minutes since the soak began. Full collections come about one a minute or
 * two, too few for a line per life: their slope is fitted against the age within the life, all
 * lives together. Handles are judged against at least {@link HANDLES_FLOOR_PER_MIN}.
 *
 * @example
 * soakFits(samples, gcs, 2, new Map([[1, 0]])).rssMb.verdict; // 'flat'
 */
export function soakFits(
  samples: readonly SoakSample[],
  gcs: readonly HeapAfterGc[],
  warmupMin: number,
  lifeStartsMin: ReadonlyMap<number, number>,
): SoakFits {
  const series = (value: (s: SoakSample) => number | undefined) =>
    samples.flatMap((s) => {
      const v = value(s);
      return v === undefined ? [] : [{ life: s.life, atMin: s.atMs / 60_000, value: v }];
    });
  const options = { warmupMin, lifeStartsMin };
  const afterGc = (points: readonly HeapAfterGc[]) =>
    fitLifeSlope(
      points.map((gc) => ({ life: gc.life, atMin: gc.atMs / 60_000, value: gc.afterMb })),
      { ...options, intercept: 'shared' },
    );
  return {
    rssAfterGcMb: afterGc(rssAfterGc(samples, gcs)),
    rssMb: fitLifeSlope(
      series((s) => (s.rssBytes === undefined ? undefined : s.rssBytes / MB)),
      options,
    ),
    heapAfterGcMb: afterGc(gcs),
    handles: fitLifeSlope(
      series((s) => s.handles),
      { ...options, thresholdFloorPerMin: HANDLES_FLOOR_PER_MIN },
    ),
    heapUsedMb: fitLifeSlope(
      series((s) => (s.heapUsedBytes === undefined ? undefined : s.heapUsedBytes / MB)),
      options,
    ),
  };
}
