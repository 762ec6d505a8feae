import { timelineRows } from './timeline-data';
import { sampleRolloutRecord } from './timeline-fixture';

describe('timelineRows', () => {
  const rows = timelineRows(sampleRolloutRecord());

  it('puts the axis from one second before the clients start to past the last turn', () => {
    expect(rows.domain).toEqual([-1, 12.5]);
  });

  it('gives each instance its phases, clipped to the axis, and no draining after a SIGKILL', () => {
    expect(rows.phases.filter((p) => p.lane === 'old-1')).toEqual([
      { lane: 'old-1', phase: 'serving', fromS: -1, toS: 4 },
      { lane: 'old-1', phase: 'draining', fromS: 4, toS: 5.5 },
    ]);
    expect(rows.phases.filter((p) => p.lane === 'old-2').map((p) => p.phase)).toEqual(['serving']);
    expect(rows.phases.filter((p) => p.lane === 'new-1')).toEqual([
      { lane: 'new-1', phase: 'starting', fromS: 2, toS: 3.5 },
      { lane: 'new-1', phase: 'serving', fromS: 3.5, toS: 12 },
    ]);
  });

  it('marks each signal and exit on its lane', () => {
    expect(rows.marks.map((m) => `${m.lane} ${m.mark}`)).toEqual([
      'old-1 SIGTERM',
      'old-1 exited',
      'old-2 SIGKILL',
      'old-2 exited',
    ]);
  });

  it('counts run moments per half second', () => {
    expect(rows.runBins.map((b) => [b.kind, b.fromS, b.count])).toEqual([
      ['interrupted', 5, 2],
      ['resumed', 5.5, 1],
      ['resumed', 6, 1],
      ['cut off', 8, 1],
      ['resumed', 10, 1],
    ]);
  });

  it('counts the clients in a gap over time, back to zero once each got events again', () => {
    expect(rows.waiting.map((w) => [Number(w.atS.toFixed(2)), w.clients])).toEqual([
      [-1, 0],
      [5.1, 1],
      [5.2, 2],
      [5.9, 1],
      [6.1, 0],
      [8.02, 1],
      [10.3, 0],
      [12.5, 0],
    ]);
  });

  it('takes runs in flight from the instances that answered /metrics only', () => {
    expect(new Set(rows.inFlight.map((row) => row.lane))).toEqual(new Set(['old-1']));
    expect(rows.inFlight.map((row) => row.runs)).toEqual([5, 5, 5, 5, 3, 1]);
  });
});
