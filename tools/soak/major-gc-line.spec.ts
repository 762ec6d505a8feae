import { majorGcOf } from './major-gc-line';

describe('majorGcOf', () => {
  it('reads the heap before and after a full collection', () => {
    const line =
      '[19211:0x4294f000]      503 ms: Mark-Compact 113.2 (230.9) -> 39.4 (171.2) MB, pooled: 46 MB, 20.22 / 0.00 ms  (average mu = 0.958, current mu = 0.958) finalize incremental marking via stack guard; GC in old space requested';
    expect(majorGcOf(line)).toEqual({ beforeMb: 113.2, afterMb: 39.4 });
  });

  it('reads a collection that reduces memory', () => {
    expect(
      majorGcOf(
        '[1:0x1]   9 ms: Mark-Compact (reduce) 80.5 (90.1) -> 60.25 (88.0) MB, 3.1 / 0.0 ms',
      ),
    ).toEqual({ beforeMb: 80.5, afterMb: 60.25 });
  });

  it('ignores scavenges and the JSON log', () => {
    expect(
      majorGcOf('[1:0x1]   7 ms: Scavenge 10.1 (12.0) -> 9.8 (13.0) MB, 0.9 / 0.0 ms'),
    ).toBeUndefined();
    expect(majorGcOf('{"level":30,"msg":"Mark-Compact 1 (2) -> 1 (2) MB"}')).toBeUndefined();
  });
});
