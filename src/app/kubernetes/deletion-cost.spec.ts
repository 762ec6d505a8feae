import { deletionCostFor } from './deletion-cost';

describe('deletionCostFor', () => {
  it('is 0 for an idle pod, so idle pods go first at scale-in', () => {
    expect(deletionCostFor(0)).toBe(0);
  });

  it('is the largest power of two not above the runs in flight', () => {
    expect([1, 2, 3, 4, 5, 7, 8, 15, 16, 100].map(deletionCostFor)).toEqual([
      1, 2, 2, 4, 4, 4, 8, 8, 16, 64,
    ]);
  });

  it('stays an int32 however many runs there are', () => {
    expect(deletionCostFor(2 ** 40)).toBe(2 ** 30);
  });

  it('treats a count that is not a number as idle', () => {
    expect(deletionCostFor(Number.NaN)).toBe(0);
    expect(deletionCostFor(-3)).toBe(0);
  });
});
