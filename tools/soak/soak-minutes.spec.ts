import { perMinute } from './soak-minutes';
import type { SoakSample } from './soak-sample';

const MB = 1024 * 1024;

function sample(atS: number, fields: Partial<SoakSample> = {}): SoakSample {
  return { atMs: atS * 1000, life: 1, load1: 1, turnsCompleted: 0, turnsCancelled: 0, ...fields };
}

describe('perMinute', () => {
  it('counts the turns and runs of each minute as the difference of the cumulative counts', () => {
    const rows = perMinute(
      [
        sample(10, { turnsCompleted: 2, runsCompleted: 3 }),
        sample(50, { turnsCompleted: 5, runsCompleted: 8 }),
        sample(70, { turnsCompleted: 9, runsCompleted: 14, turnsCancelled: 1 }),
        sample(110, { turnsCompleted: 12, runsCompleted: 20, turnsCancelled: 1 }),
      ],
      [],
      2,
    );
    expect(rows.map((r) => [r.turnsCompleted, r.runsCompleted, r.turnsCancelled])).toEqual([
      [5, 8, 0],
      [7, 12, 1],
    ]);
  });

  it('averages memory and handles, and takes the worst database sessions and lag of the minute', () => {
    const [row] = perMinute(
      [
        sample(5, {
          rssBytes: 100 * MB,
          heapUsedBytes: 40 * MB,
          handles: 10,
          dbConnections: 4,
          lagP99Seconds: 0.02,
        }),
        sample(35, {
          rssBytes: 120 * MB,
          heapUsedBytes: 60 * MB,
          handles: 20,
          dbConnections: 9,
          lagP99Seconds: 0.01,
        }),
      ],
      [],
      1,
    );
    expect(row).toMatchObject({ rssMb: 110, heapUsedMb: 50, handles: 15, dbConnectionsMax: 9 });
    expect(row.lagP99Ms).toBeCloseTo(20, 9);
  });

  it('averages the heap after the full collections of each minute', () => {
    const gcs = [
      { atMs: 20_000, life: 1, afterMb: 100 },
      { atMs: 50_000, life: 1, afterMb: 110 },
      { atMs: 90_000, life: 1, afterMb: 120 },
    ];
    expect(perMinute([], [], 3, gcs).map((r) => r.heapAfterGcMb)).toEqual([105, 120, undefined]);
  });

  it('leaves out what a sample did not read, and keeps a row for a minute without samples', () => {
    const rows = perMinute([sample(5, { rssBytes: 100 * MB }), sample(10, {})], [], 2);
    expect(rows[0].rssMb).toBe(100);
    expect(rows[0].heapUsedMb).toBeUndefined();
    expect(rows[1]).toMatchObject({ minute: 2, turnsCompleted: 0, lives: [] });
  });

  it('marks the minutes with a restart, and the lives sampled in them', () => {
    const rows = perMinute(
      [sample(30, { life: 1 }), sample(100, { life: 1 }), sample(115, { life: 2 })],
      [95_000],
      2,
    );
    expect(rows.map((r) => [r.restarts, r.lives])).toEqual([
      [0, [1]],
      [1, [1, 2]],
    ]);
  });
});
