import { roundsOf, stateText, type StepItem } from './step-rows.js';

const item = (threadId: string, id: string): StepItem & { id: string } => ({
  id,
  target: { threadId, runId: 'r1', runKey: `${threadId}-key`, iteration: 1, phase: 'acting' },
  step: {},
});

describe('roundsOf', () => {
  it('keeps a batch of distinct threads as one round', () => {
    expect(
      roundsOf([item('a', '1'), item('b', '2')]).map((round) => round.map((i) => i.id)),
    ).toEqual([['1', '2']]);
  });

  it("puts a thread's later steps in later rounds, in their order", () => {
    const rounds = roundsOf([item('a', '1'), item('a', '2'), item('b', '3'), item('a', '4')]);
    expect(rounds.map((round) => round.map((i) => i.id))).toEqual([['1', '3'], ['2'], ['4']]);
  });
});

describe('stateText', () => {
  it('keeps the state for undefined, clears it for null, and stores JSON otherwise', () => {
    expect(stateText({})).toBeUndefined();
    expect(stateText({ state: null })).toBeNull();
    expect(stateText({ state: { at: 1 } })).toBe('{"at":1}');
  });
});
