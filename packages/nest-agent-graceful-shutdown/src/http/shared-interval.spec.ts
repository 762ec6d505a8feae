import { waitFor } from 'dev-services';
import { SharedInterval } from './shared-interval.js';

describe('SharedInterval', () => {
  it('calls every registered task each period until it is released', async () => {
    const interval = SharedInterval.every(20);
    const calls = [0, 0];
    const releases = calls.map((_, i) => interval.add(() => calls[i]++));

    await waitFor(() => calls.every((count) => count >= 2), 'two calls of each task', 2_000);
    releases.forEach((release) => release());

    expect(interval.size).toBe(0);
  });

  it('counts one function registered twice as two tasks', () => {
    const interval = SharedInterval.every(10_000);
    const task = () => undefined;
    const releases = [interval.add(task), interval.add(task)];

    expect(interval.size).toBe(2);
    releases.forEach((release) => release());
  });
});
