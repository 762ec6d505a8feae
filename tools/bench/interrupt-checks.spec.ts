import { replacedRunProblems, rotation } from './interrupt-checks';

describe('replacedRunProblems', () => {
  it('finds nothing wrong with RUN_ERROR RUN_REPLACED naming the new run', () => {
    const terminal = {
      type: 'RUN_ERROR',
      code: 'RUN_REPLACED',
      replacedBy: { runId: 'run-2', multitask: 'interrupt' },
    };
    expect(replacedRunProblems(terminal, 'run-2')).toEqual([]);
  });

  it('reports a replaced run that finished instead', () => {
    expect(replacedRunProblems({ type: 'RUN_FINISHED' }, 'run-2')).toEqual([
      'the replaced run ended RUN_FINISHED, not RUN_ERROR RUN_REPLACED',
      'the replaced run names null, not run-2 by interrupt',
    ]);
  });

  it('reports a replacement naming another run', () => {
    const terminal = {
      type: 'RUN_ERROR',
      code: 'RUN_REPLACED',
      replacedBy: { runId: 'run-3', multitask: 'interrupt' },
    };
    expect(replacedRunProblems(terminal, 'run-2')).toEqual([
      'the replaced run names {"runId":"run-3","multitask":"interrupt"}, not run-2 by interrupt',
    ]);
  });

  it('reports a stream that ended without a terminal event', () => {
    expect(replacedRunProblems(undefined, 'run-2')).toEqual([
      'the replaced run ended without a terminal event',
    ]);
  });
});

describe('rotation', () => {
  it('starts repetition i at case i, wrapping around', () => {
    expect([0, 1, 2, 3].map((i) => rotation(['a', 'b', 'c'], i).join(''))).toEqual([
      'abc',
      'bca',
      'cab',
      'abc',
    ]);
  });

  it('returns nothing for no cases', () => {
    expect(rotation([], 5)).toEqual([]);
  });
});
