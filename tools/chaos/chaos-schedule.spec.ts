import { FAULT_KINDS, makeSchedule, scheduleLine, type ScheduleOptions } from './chaos-schedule';

const options: ScheduleOptions = { seed: 42, seconds: 60, users: 12, leaseTtlMs: 15_000 };

describe('makeSchedule', () => {
  it('makes the same schedule from the same seed', () => {
    expect(makeSchedule(options).map(scheduleLine)).toEqual(
      makeSchedule({ ...options }).map(scheduleLine),
    );
  });

  it('makes a different schedule from another seed', () => {
    expect(makeSchedule({ ...options, seed: 43 }).map(scheduleLine)).not.toEqual(
      makeSchedule(options).map(scheduleLine),
    );
  });

  it('keeps the faults where they were when the number of users changes', () => {
    const faultsOf = (users: number) =>
      makeSchedule({ ...options, users }).filter((e) =>
        (FAULT_KINDS as readonly string[]).includes(e.action),
      );
    expect(faultsOf(30)).toEqual(faultsOf(5));
  });

  it('injects one fault at a time and none in the last 8 seconds', () => {
    const faults = makeSchedule({ ...options, seconds: 120 }).filter((e) =>
      (FAULT_KINDS as readonly string[]).includes(e.action),
    );
    for (let i = 1; i < faults.length; i++)
      expect(faults[i].atMs).toBeGreaterThanOrEqual(
        faults[i - 1].atMs + (faults[i - 1].durationMs ?? 0),
      );
    for (const fault of faults)
      expect(fault.atMs + (fault.durationMs ?? 0)).toBeLessThanOrEqual(112_000);
  });

  it('pauses an instance for longer than the lease TTL', () => {
    const pauses = [1, 2, 3, 4, 5].flatMap((seed) =>
      makeSchedule({ ...options, seed, seconds: 120 }).filter((e) => e.action === 'pause'),
    );
    expect(pauses.length).toBeGreaterThan(0);
    for (const pause of pauses) expect(pause.durationMs).toBeGreaterThan(options.leaseTtlMs);
  });

  it('injects every kind of fault in a two-minute window', () => {
    const kinds = new Set(makeSchedule({ ...options, seconds: 120 }).map((e) => e.action));
    for (const kind of FAULT_KINDS) expect(kinds).toContain(kind);
  });

  it('prints a line with the time offset, the action and the target', () => {
    expect(
      scheduleLine({ atMs: 12_345, action: 'pause', target: 'slot-2', durationMs: 18_000 }),
    ).toBe('+  12.345s  pause          slot-2  for 18000 ms');
  });
});
