import { WriteQueue } from './write-queue.js';

/** A job that stays in flight until `finish()` is called. */
function heldJob(log: string[], name: string): { job: () => Promise<string>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    job: async () => {
      log.push(`${name} started`);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

describe('WriteQueue', () => {
  it('runs jobs one at a time, in the order they were queued', async () => {
    const queue = new WriteQueue();
    const log: string[] = [];
    const first = heldJob(log, 'first');
    const results = [queue.run(first.job), queue.run(async () => log.push('second started'))];

    await Promise.resolve();
    expect(log).toEqual(['first started']);
    first.finish();
    await Promise.all(results);

    expect(log).toEqual(['first started', 'second started']);
  });

  it('runs an urgent job right after the job in flight, before every ordinary job already waiting', async () => {
    const queue = new WriteQueue();
    const log: string[] = [];
    const inFlight = heldJob(log, 'in flight');
    const results = [queue.run(inFlight.job)];
    for (let i = 1; i <= 50; i++)
      results.push(queue.run(async () => String(log.push(`checkpoint ${i}`))));
    results.push(queue.run(async () => String(log.push('renewal')), { urgent: true }));

    inFlight.finish();
    await Promise.all(results);

    expect(log.slice(0, 3)).toEqual(['in flight started', 'renewal', 'checkpoint 1']);
    expect(log).toHaveLength(52);
  });

  it('goes on with the next job after one fails, and hands the failure to its caller only', async () => {
    const queue = new WriteQueue();
    const failed = queue.run(async () => {
      throw new Error('constraint violated');
    });

    const next = queue.run(async () => 'written');

    await expect(failed).rejects.toThrow('constraint violated');
    await expect(next).resolves.toBe('written');
    expect(queue.waiting).toBe(0);
  });
});
