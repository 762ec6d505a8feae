import type { RolloutRecord } from './rollout-timeline';

/**
 * A small rollout record for the chart specs: two old instances replaced by two new ones
 * (old-1 by SIGTERM, old-2 by SIGKILL), a few client moments and gaps, and `/metrics` samples
 * of old-1 only. Times in ms, the clients starting at 10,000.
 */
export function sampleRolloutRecord(): RolloutRecord {
  const at = (s: number) => 10_000 + s * 1000;
  return {
    originMs: at(0),
    endMs: at(12),
    instances: [
      {
        name: 'old-1',
        launchedAtMs: at(-6),
        routedAtMs: at(-5),
        signal: { kind: 'SIGTERM', atMs: at(4) },
        exitedAtMs: at(5.5),
      },
      {
        name: 'old-2',
        launchedAtMs: at(-4),
        routedAtMs: at(-3),
        signal: { kind: 'SIGKILL', atMs: at(8) },
        exitedAtMs: at(8.01),
      },
      { name: 'new-1', launchedAtMs: at(2), routedAtMs: at(3.5) },
      { name: 'new-2', launchedAtMs: at(6), routedAtMs: at(7.5), leftRotationAtMs: undefined },
    ],
    moments: [
      { kind: 'interrupted', atMs: at(5.1) },
      { kind: 'interrupted', atMs: at(5.2) },
      { kind: 'resumed', atMs: at(5.9) },
      { kind: 'resumed', atMs: at(6.1) },
      { kind: 'cut off', atMs: at(8.02) },
      { kind: 'resumed', atMs: at(10.3) },
    ],
    gaps: [
      { fromMs: at(5.1), toMs: at(5.9) },
      { fromMs: at(5.2), toMs: at(6.1) },
      { fromMs: at(8.02), toMs: at(10.3) },
    ],
    metrics: [
      {
        name: 'old-1',
        misses: 1,
        samples: [0, 1, 2, 3, 4, 5].map((s) => ({
          atMs: at(s),
          inFlight: 5 - Math.max(0, s - 3) * 2,
          runsTotal: {},
          resumesTotal: {},
          shutdownSeconds: {},
        })),
      },
      { name: 'old-2', misses: 40, samples: [], lastMiss: 'HTTP 404' },
    ],
  };
}
