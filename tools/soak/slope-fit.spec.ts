import { fitLifeSlope, type LifePoint } from './slope-fit';

/** Points every 0.1 min of `life` from `fromMin` to `toMin`, valued by `value`. */
function life(
  n: number,
  fromMin: number,
  toMin: number,
  value: (atMin: number) => number,
): LifePoint[] {
  const points: LifePoint[] = [];
  for (let atMin = fromMin; atMin <= toMin + 1e-9; atMin += 0.1)
    points.push({ life: n, atMin, value: value(atMin) });
  return points;
}

describe('fitLifeSlope', () => {
  it('finds the slope of a straight line', () => {
    const fit = fitLifeSlope(
      life(1, 0, 4, (t) => 100 + 3 * t),
      { warmupMin: 0 },
    );
    expect(fit.slopePerMin).toBeCloseTo(3, 9);
    expect(fit.standardError).toBeCloseTo(0, 9);
  });

  it('fits one slope within lives, not the saw-tooth of the restarts between them', () => {
    // Each life starts at 200 and grows 1 per minute: across lives the values fall back at each restart.
    const points = [
      ...life(1, 0, 4, (t) => 200 + t),
      ...life(2, 4, 8, (t) => 200 + (t - 4)),
      ...life(3, 8, 12, (t) => 200 + (t - 8)),
    ];
    const fit = fitLifeSlope(points, { warmupMin: 0 });
    expect(fit.slopePerMin).toBeCloseTo(1, 9);
    expect(fit.lives).toBe(3);
  });

  it('judges the median of the lives: one life warming up late does not make a leak', () => {
    const points = [
      ...life(1, 0, 4, (t) => 200 + 20 * t),
      ...life(2, 4, 8, () => 300),
      ...life(3, 8, 12, () => 300),
    ];
    const fit = fitLifeSlope(points, { warmupMin: 0 });
    expect(fit.lifeSlopesPerMin.map((v) => Math.round(v))).toEqual([20, 0, 0]);
    expect(fit.slopePerMin).toBeCloseTo(0, 9);
    expect(fit.pooledSlopePerMin).toBeCloseTo(20 / 3, 9);
    expect(fit.verdict).toBe('flat');
  });

  it('leaves out the warm-up of every life', () => {
    // Steep for the first 2 minutes of each life, flat after.
    const shape = (start: number) => (t: number) => (t - start < 2 ? 100 + 50 * (t - start) : 200);
    const fit = fitLifeSlope([...life(1, 0, 5, shape(0)), ...life(2, 5, 10, shape(5))], {
      warmupMin: 2,
    });
    expect(fit.slopePerMin).toBeCloseTo(0, 9);
    expect(fit.verdict).toBe('flat');
    expect(fit.mean).toBeCloseTo(200, 9);
  });

  it('calls growth over 1% of the mean per minute growing, and as much decline falling', () => {
    expect(
      fitLifeSlope(
        life(1, 0, 4, (t) => 100 + 1.5 * t),
        { warmupMin: 0 },
      ).verdict,
    ).toBe('growing');
    expect(
      fitLifeSlope(
        life(1, 0, 4, (t) => 100 - 1.5 * t),
        { warmupMin: 0 },
      ).verdict,
    ).toBe('falling');
    expect(
      fitLifeSlope(
        life(1, 0, 4, (t) => 100 + 0.5 * t),
        { warmupMin: 0 },
      ).verdict,
    ).toBe('flat');
  });

  it('reports the threshold it judged by', () => {
    const fit = fitLifeSlope(
      life(1, 0, 4, () => 250),
      { warmupMin: 0, thresholdShare: 0.02 },
    );
    expect(fit.thresholdPerMin).toBeCloseTo(5, 9);
  });

  it('counts the warm-up from the start of the life, not from its first sample', () => {
    // The life began at minute 0; its first sample (a full collection, say) came at minute 1.5.
    const points = life(1, 1.5, 4, (t) => 100 + 3 * t);
    expect(fitLifeSlope(points, { warmupMin: 2, lifeStartsMin: new Map([[1, 0]]) }).samples).toBe(
      21,
    );
    expect(fitLifeSlope(points, { warmupMin: 2 }).samples).toBe(6);
  });

  it('judges by the floor when the share of the mean is smaller', () => {
    const fit = fitLifeSlope(
      life(1, 0, 4, (t) => 20 + 0.4 * t),
      { warmupMin: 0, thresholdFloorPerMin: 0.5 },
    );
    expect(fit.thresholdPerMin).toBe(0.5);
    expect(fit.verdict).toBe('flat');
  });

  it('with a shared intercept, fits against the age within the life and counts lives of one sample', () => {
    // One full collection per life, each one minute older than the one before, each 2 MB higher.
    const points = [1, 2, 3].map((n) => ({ life: n, atMin: (n - 1) * 5 + n, value: 100 + 2 * n }));
    const lifeStartsMin = new Map([1, 2, 3].map((n) => [n, (n - 1) * 5]));
    const fit = fitLifeSlope(points, { warmupMin: 0, lifeStartsMin, intercept: 'shared' });
    expect(fit.slopePerMin).toBeCloseTo(2, 9);
    expect(fit.lives).toBe(3);
  });

  it('says so when no life has enough samples after its warm-up', () => {
    const fit = fitLifeSlope(
      life(1, 0, 1, (t) => t),
      { warmupMin: 2 },
    );
    expect(fit.verdict).toBe('too few samples');
    expect(fit.samples).toBe(0);
  });
});
