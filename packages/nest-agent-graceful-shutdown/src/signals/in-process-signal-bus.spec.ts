import type { RunEndedSignal } from '../contracts/signal-bus.interface.js';
import { InProcessSignalBus } from './in-process-signal-bus.js';
import { waitFor } from 'dev-services';

/** Lets queued microtasks and immediates run, which is where a late subscriber's cancel is delivered. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const run = { threadId: 't1', runId: 'r1' };

describe('InProcessSignalBus cancels', () => {
  it('delivers a cancel to the subscriber of that run', async () => {
    const bus = new InProcessSignalBus();
    let cancels = 0;
    bus.onCancel('t1', 'r1', () => cancels++);

    await bus.publishCancel(run);

    await waitFor(() => cancels === 1, 'the cancel');
  });

  it('does not deliver a cancel to the subscriber of another run', async () => {
    const bus = new InProcessSignalBus();
    let other = 0;
    let target = 0;
    bus.onCancel('t1', 'r2', () => other++);
    bus.onCancel('t1', 'r1', () => target++);

    await bus.publishCancel(run);

    await waitFor(() => target === 1, 'the cancel of r1');
    expect(other).toBe(0);
  });

  it('delivers a cancel published before the subscription, within the TTL', async () => {
    const bus = new InProcessSignalBus(60_000);
    await bus.publishCancel(run);
    let cancels = 0;

    bus.onCancel('t1', 'r1', () => cancels++);

    await waitFor(() => cancels === 1, 'the remembered cancel');
  });

  it('forgets a cancel once its TTL has passed', async () => {
    const ttlMs = 50;
    const bus = new InProcessSignalBus(ttlMs);
    await bus.publishCancel(run);
    await new Promise((resolve) => setTimeout(resolve, ttlMs * 2));
    let cancels = 0;

    bus.onCancel('t1', 'r1', () => cancels++);
    await settle();

    expect(cancels).toBe(0);
  });

  it('stops delivering cancels to a handler after it unsubscribes', async () => {
    const bus = new InProcessSignalBus();
    let kept = 0;
    let dropped = 0;
    bus.onCancel('t1', 'r1', () => kept++);
    const unsubscribe = bus.onCancel('t1', 'r1', () => dropped++);

    unsubscribe();
    await bus.publishCancel(run);

    await waitFor(() => kept === 1, 'the cancel to reach the remaining handler');
    expect(dropped).toBe(0);
  });
});

describe('InProcessSignalBus run-ended notices', () => {
  it('delivers a run-ended notice with its status to the waiters of that run', async () => {
    const bus = new InProcessSignalBus();
    const seen: RunEndedSignal[] = [];
    bus.onRunEnded('t1', 'r1', (signal) => seen.push(signal));
    bus.onRunEnded('t1', 'r1', (signal) => seen.push(signal));
    const ended: RunEndedSignal = { ...run, status: 'canceled', stopReason: 'canceled' };

    await bus.publishRunEnded(ended);

    await waitFor(() => seen.length === 2, 'both waiters');
    expect(seen).toEqual([ended, ended]);
  });

  it('does not deliver a run-ended notice to the waiters of another run', async () => {
    const bus = new InProcessSignalBus();
    const seen: RunEndedSignal[] = [];
    bus.onRunEnded('t2', 'r1', (signal) => seen.push(signal));
    let target = 0;
    bus.onRunEnded('t1', 'r1', () => target++);

    await bus.publishRunEnded({ ...run, status: 'completed', stopReason: 'completed' });

    await waitFor(() => target === 1, 'the notice of t1');
    expect(seen).toEqual([]);
  });

  it('stops delivering run-ended notices to a waiter after it unsubscribes', async () => {
    const bus = new InProcessSignalBus();
    let kept = 0;
    let dropped = 0;
    bus.onRunEnded('t1', 'r1', () => kept++);
    bus.onRunEnded('t1', 'r1', () => dropped++)();

    await bus.publishRunEnded({ ...run, status: 'completed', stopReason: 'completed' });

    await waitFor(() => kept === 1, 'the notice to reach the remaining waiter');
    expect(dropped).toBe(0);
  });
});
