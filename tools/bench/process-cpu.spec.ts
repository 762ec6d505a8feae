import { cpuMicrosOf, processCpuMicros, statFieldsOf } from './process-cpu';

// A stat line whose command name holds a space and a closing parenthesis; utime 250, stime 30.
const STAT = '4242 (node (x) y) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 30 0 0 20 0 11 0 77 1 2';

describe('process CPU from /proc/<pid>/stat', () => {
  it('splits the fields after a command name that holds spaces and parentheses', () => {
    expect(statFieldsOf(STAT).slice(0, 2)).toEqual(['S', '1']);
  });

  it('adds user and system ticks, in microseconds', () => {
    expect(cpuMicrosOf(statFieldsOf(STAT))).toBe(2_800_000);
  });

  it('reads this process, whose CPU so far is above zero', () => {
    expect(processCpuMicros(process.pid)).toBeGreaterThan(0);
  });
});
