/** How many samples of each variant an interleaved measurement takes. */
export interface InterleavedRuns {
  /** Measured samples per variant. */
  runs: number;
  /** Unmeasured samples per variant first, so both are measured with optimised code. */
  warmupRuns: number;
}

/**
 * Takes `warmupRuns + runs` samples of each of two variants, alternating which goes first on
 * each repetition so drift in machine load hits both alike, and returns each variant's samples
 * after the warm-up, in the order of `variants`.
 *
 * @example
 * const [plain, withModule] = await interleavedSamples([timePlain, timeWithModule], { runs: 40, warmupRuns: 5 });
 */
export async function interleavedSamples(
  variants: readonly [() => Promise<number>, () => Promise<number>],
  { runs, warmupRuns }: InterleavedRuns,
): Promise<[number[], number[]]> {
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < warmupRuns + runs; i++) {
    for (const variant of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const sample = await variants[variant]();
      if (i >= warmupRuns) samples[variant].push(sample);
    }
  }
  return samples;
}
