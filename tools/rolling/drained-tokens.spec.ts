import { drainedTokens } from './rollout';

describe("an old instance's discarded tokens", () => {
  it('are read from its runs drained line', () => {
    const logs = [
      JSON.stringify({ level: 'info', msg: 'shutdown started', inFlight: 3 }),
      JSON.stringify({
        level: 'info',
        msg: 'runs drained',
        inFlight: 3,
        interrupted: 2,
        tokensDiscarded: { input: 1_250, output: 40 },
      }),
    ].join('\n');

    expect(drainedTokens(logs)).toEqual({ input: 1_250, output: 40 });
  });

  it('are unknown for an instance that logged no runs drained line (killed)', () => {
    expect(drainedTokens(JSON.stringify({ level: 'info', msg: 'run started' }))).toBeUndefined();
  });
});
