import { performance } from 'node:perf_hooks';
import { setImmediate as tick } from 'node:timers/promises';
import { markToolCall, stepTimes, timeRun, timeWrite } from './step-clock';

describe('step clock', () => {
  it('gives each run the times of its own tool calls when runs interleave', async () => {
    const run = (calls: number) => async () => {
      for (let i = 0; i < calls; i++) {
        await tick();
        markToolCall();
      }
    };
    const [two, three] = await Promise.all([timeRun(run(2)), timeRun(run(3))]);
    expect([two.toolCalls.length, three.toolCalls.length]).toEqual([2, 3]);
  });

  it('adds the writes between two tool calls to the step they close', async () => {
    const { writeWaits } = await timeRun(async () => {
      await timeWrite(tick); // before the first tool call: the run's start, no step
      markToolCall();
      await timeWrite(tick);
      await timeWrite(tick);
      markToolCall();
      markToolCall();
    });
    expect(writeWaits).toHaveLength(2);
    expect(writeWaits[0]).toBeGreaterThan(0);
    expect(writeWaits[1]).toBe(0);
  });

  it('counts overlapping writes once', async () => {
    let wall = 0;
    const { writeWaits } = await timeRun(async () => {
      markToolCall();
      const started = performance.now();
      await Promise.all([timeWrite(tick), timeWrite(tick), timeWrite(tick)]);
      wall = performance.now() - started;
      markToolCall();
    });
    expect(writeWaits).toHaveLength(1);
    expect(writeWaits[0]).toBeLessThanOrEqual(wall);
  });

  it('ignores tool calls and writes outside a timed run', async () => {
    expect(() => markToolCall()).not.toThrow();
    await expect(timeWrite(async () => 'written')).resolves.toBe('written');
  });

  it('makes one step of each gap between consecutive tool calls', () => {
    expect(stepTimes([10, 12, 17])).toEqual([2, 5]);
    expect(stepTimes([10])).toEqual([]);
  });
});
