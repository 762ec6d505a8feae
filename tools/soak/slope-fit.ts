/** One measurement of one instance life: minutes since the soak began, and the value read. */
export interface LifePoint {
  /** The instance life it belongs to (1, 2, …): a restart starts a new one. */
  life: number;
  /** Minutes since the soak began. */
  atMin: number;
  value: number;
}

/** A least-squares slope over the post-warm-up samples of every life, and what it means. */
export interface SlopeFit {
  /**
   * The judged change per minute, in the values' unit: the median of the lives' own slopes
   * (`per-life`), or the one line's slope (`shared`); 0 when there are too few samples to fit.
   */
  slopePerMin: number;
  /** Each life's own least-squares slope, in life order (`per-life` only). */
  lifeSlopesPerMin: number[];
  /** The slope common to all lives, with one intercept per life (`per-life`), or the one line's (`shared`). */
  pooledSlopePerMin: number;
  /** The pooled slope's standard error, in the same unit: how much of it is noise. */
  standardError: number;
  /** The mean of the samples fitted. */
  mean: number;
  /** The slope a steady service stays under: `thresholdShare` of the mean per minute, at least `thresholdFloorPerMin`. */
  thresholdPerMin: number;
  /** Samples fitted, and lives they came from (a life with fewer than `minLifeSamples` is left out). */
  samples: number;
  lives: number;
  /** `flat`: |slope| ≤ threshold; `falling`: below −threshold; `growing`: over the threshold (a failure). */
  verdict: 'flat' | 'falling' | 'growing' | 'too few samples';
}

/** How {@link fitLifeSlope} picks and judges its samples. */
export interface SlopeFitOptions {
  /** Minutes into each life left out of the fit. */
  warmupMin: number;
  /** The flat threshold as a share of the mean, per minute. Default: {@link FLAT_SHARE_PER_MIN}. */
  thresholdShare?: number;
  /** A life with fewer post-warm-up samples is left out. Default: 3. */
  minLifeSamples?: number;
  /** When each life began, in minutes since the soak began; default: its first sample. */
  lifeStartsMin?: ReadonlyMap<number, number>;
  /** The least threshold, in the values' unit per minute, whatever the mean. Default: 0. */
  thresholdFloorPerMin?: number;
  /**
   * `per-life` (default): one intercept per life, so a life's own level does not count as
   * growth. `shared`: one line against the age within the life, for sparse series (a few full
   * collections a life) where a life with one sample must still count.
   */
  intercept?: 'per-life' | 'shared';
}

/** The default threshold: 1% of the mean per minute, 15% over a 15-minute soak. */
export const FLAT_SHARE_PER_MIN = 0.01;

/**
 * The slope of a series within instance lives. A restart resets the process's memory, so a
 * line across lives would fit the restarts' saw-tooth, not a leak. Only samples at least
 * `warmupMin` into their life count, and only lives with at least `minLifeSamples` of them (see
 * {@link SlopeFitOptions}).
 *
 * `per-life`: each life gets its own least-squares slope, and the median of them is judged: a
 * leak grows in every life, while a life that warms up late (a busy machine at its start) grows
 * in that life only. The slope common to all lives (one intercept per life) is given too, with
 * its standard error. `shared`: one line against the age within the life, all lives together.
 *
 * @example
 * fitLifeSlope([{ life: 1, atMin: 3, value: 100 }, …], { warmupMin: 2 }); // { slopePerMin: 0.2, verdict: 'flat', … }
 */
export function fitLifeSlope(points: readonly LifePoint[], options: SlopeFitOptions): SlopeFit {
  const {
    warmupMin,
    thresholdShare = FLAT_SHARE_PER_MIN,
    thresholdFloorPerMin = 0,
    intercept = 'per-life',
  } = options;
  const minLifeSamples = options.minLifeSamples ?? (intercept === 'shared' ? 1 : 3);
  const lives = new Map<number, LifePoint[]>();
  const lifeStart = new Map<number, number>(options.lifeStartsMin);
  for (const p of points)
    if (!options.lifeStartsMin?.has(p.life))
      lifeStart.set(p.life, Math.min(lifeStart.get(p.life) ?? Infinity, p.atMin));
  for (const p of points) {
    const age = p.atMin - (lifeStart.get(p.life) ?? p.atMin);
    if (age < warmupMin || !Number.isFinite(p.value)) continue;
    // With a shared intercept, time is the age within the life, and all lives are one group.
    const point = intercept === 'shared' ? { ...p, atMin: age } : p;
    lives.set(p.life, [...(lives.get(p.life) ?? []), point]);
  }
  let sxx = 0;
  let sxy = 0;
  let sum = 0;
  let n = 0;
  const centred: { x: number; y: number }[] = [];
  const lifeSlopesPerMin: number[] = [];
  const kept = [...lives.values()].filter((life) => life.length >= minLifeSamples);
  const groups = intercept === 'shared' ? [kept.flat()] : kept;
  for (const group of groups) {
    if (group.length === 0) continue;
    const mx = mean(group.map((p) => p.atMin));
    const my = mean(group.map((p) => p.value));
    let [gxx, gxy] = [0, 0];
    for (const p of group) {
      const x = p.atMin - mx;
      const y = p.value - my;
      gxx += x * x;
      gxy += x * y;
      centred.push({ x, y });
      sum += p.value;
      n++;
    }
    sxx += gxx;
    sxy += gxy;
    if (intercept === 'per-life' && gxx > 0) lifeSlopesPerMin.push(gxy / gxx);
  }
  const usedLives = kept.length;
  const average = n > 0 ? sum / n : 0;
  const thresholdPerMin = Math.max(thresholdFloorPerMin, Math.abs(average) * thresholdShare);
  const base = { mean: average, thresholdPerMin, samples: n, lives: usedLives, lifeSlopesPerMin };
  if (sxx === 0)
    return {
      ...base,
      slopePerMin: 0,
      pooledSlopePerMin: 0,
      standardError: 0,
      verdict: 'too few samples',
    };
  const pooled = sxy / sxx;
  // Residual variance with one degree of freedom lost per intercept and one for the slope.
  const freedom = n - groups.length - 1;
  const residuals = centred.reduce((acc, { x, y }) => acc + (y - pooled * x) ** 2, 0);
  const standardError = freedom > 0 ? Math.sqrt(residuals / freedom / sxx) : 0;
  const slope = intercept === 'per-life' ? median(lifeSlopesPerMin) : pooled;
  const verdict =
    slope > thresholdPerMin ? 'growing' : slope < -thresholdPerMin ? 'falling' : 'flat';
  return { ...base, slopePerMin: slope, pooledSlopePerMin: pooled, standardError, verdict };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}
