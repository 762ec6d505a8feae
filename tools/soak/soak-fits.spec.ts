import { rssAfterGc } from './soak-fits';
import type { SoakSample } from './soak-sample';

const MB = 1024 * 1024;

function sample(atS: number, life: number, rssMb?: number): SoakSample {
  return {
    atMs: atS * 1000,
    life,
    load1: 1,
    turnsCompleted: 0,
    turnsCancelled: 0,
    ...(rssMb === undefined ? {} : { rssBytes: rssMb * MB }),
  };
}

describe('rssAfterGc', () => {
  it('takes the lowest RSS of the same life in the 10 s after each full collection', () => {
    const samples = [
      sample(98, 1, 400),
      sample(102, 1, 380),
      sample(104, 1, 210),
      sample(108, 1, 230),
      sample(115, 1, 190),
    ];
    expect(rssAfterGc(samples, [{ atMs: 100_000, life: 1, afterMb: 80 }])).toEqual([
      { atMs: 100_000, life: 1, afterMb: 210 },
    ]);
  });

  it('leaves out a collection with no sample of its life after it', () => {
    const samples = [sample(102, 2, 300), sample(103, 1)];
    expect(rssAfterGc(samples, [{ atMs: 100_000, life: 1, afterMb: 80 }])).toEqual([]);
  });
});
