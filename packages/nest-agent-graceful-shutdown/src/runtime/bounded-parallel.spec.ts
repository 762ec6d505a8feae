import { runBounded } from './bounded-parallel.js';

/** A task per item that finishes only when released, counting how many run at once. */
function gatedTasks() {
  let running = 0;
  let peak = 0;
  const started: number[] = [];
  const releases = new Map<number, () => void>();
  const work = (item: number) =>
    new Promise<void>((resolve) => {
      running++;
      peak = Math.max(peak, running);
      started.push(item);
      releases.set(item, () => {
        running--;
        resolve();
      });
    });
  const releaseAll = async () => {
    while (releases.size) {
      for (const [item, release] of [...releases]) {
        releases.delete(item);
        release();
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { work, started, releaseAll, peak: () => peak };
}

describe('runBounded', () => {
  it('runs at most `limit` items at once, starting them in order', async () => {
    const tasks = gatedTasks();
    const done = runBounded([1, 2, 3, 4, 5], 2, tasks.work);
    await new Promise((resolve) => setImmediate(resolve));

    expect(tasks.started).toEqual([1, 2]);
    await tasks.releaseAll();
    await done;
    expect(tasks.started).toEqual([1, 2, 3, 4, 5]);
    expect(tasks.peak()).toBe(2);
  });

  it('starts nothing new after a failure, waits for the running items, then throws that failure', async () => {
    const finished: number[] = [];
    const work = async (item: number) => {
      if (item === 1) throw new Error('first failed');
      await new Promise((resolve) => setImmediate(resolve));
      finished.push(item);
    };

    await expect(runBounded([1, 2, 3, 4], 2, work)).rejects.toThrow('first failed');
    expect(finished).toEqual([2]);
  });
});
