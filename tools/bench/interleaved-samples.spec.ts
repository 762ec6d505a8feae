import { interleavedSamples } from './interleaved-samples';

describe('interleavedSamples', () => {
  it('alternates which variant goes first on each repetition', async () => {
    const calls: string[] = [];
    const variant = (name: string) => async () => (calls.push(name), 0);
    await interleavedSamples([variant('a'), variant('b')], { runs: 2, warmupRuns: 1 });
    expect(calls).toEqual(['a', 'b', 'b', 'a', 'a', 'b']);
  });

  it('keeps each variant its own samples after the warm-up, in order', async () => {
    const counters = [0, 0];
    const variant = (index: number) => async () => (index + 1) * 100 + counters[index]++;
    const samples = await interleavedSamples([variant(0), variant(1)], { runs: 3, warmupRuns: 2 });
    expect(samples).toEqual([
      [102, 103, 104],
      [202, 203, 204],
    ]);
  });
});
