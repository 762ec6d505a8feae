/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { CancelSignal, RunEndedSignal, SignalBus } from '../contracts/signal-bus.interface.js';
import { until } from './run-event-log-probes.js';

/** Buses under test, each playing one instance on one shared transport, and how to release them. */
export interface SignalBusFixture {
  /**
   * `count` connected buses on the same transport, as separate instances hold them; an
   * in-process bus may hand back the same bus `count` times.
   */
  instances(count: number): Promise<SignalBus[]>;
  /** Closes what `instances` opened; called after each test. */
  dispose(): Promise<void>;
}

const freshRun = () => ({ threadId: `thread-${randomUUID()}`, runId: `run-${randomUUID()}` });
const ended = (run: { threadId: string; runId: string }): RunEndedSignal => ({
  ...run,
  status: 'canceled',
  stopReason: 'canceled',
});

/**
 * Waits until `to` hears a cancel of a fresh run published on `from`. A transport delivers one
 * channel's messages in order, so whatever `from` published before has reached `to` too.
 */
async function drain(from: SignalBus, to: SignalBus): Promise<void> {
  let heard = false;
  const marker = freshRun();
  const stop = to.onCancel(marker.threadId, marker.runId, () => (heard = true));
  try {
    await from.publishCancel(marker);
    await until(() => heard, 'the marker cancel');
  } finally {
    stop();
  }
}

/**
 * The behaviour every `SignalBus` must have across instances: cancels reach the run's
 * subscriber wherever it is, also when it subscribes later; a run's end clears its cancel and
 * reaches every instance. Each test uses runs of its own, so buses may share a transport.
 */
export function describeSignalBusContract(
  name: string,
  factory: () => Promise<SignalBusFixture>,
): void {
  describe(`${name} (SignalBus contract)`, () => {
    let fixture: SignalBusFixture;

    beforeEach(async () => {
      fixture = await factory();
    });

    afterEach(async () => {
      await fixture.dispose();
    });

    it('delivers a cancel published on one instance to the run subscribed on another, with its fields', async () => {
      const [a, b] = await fixture.instances(2);
      const run = freshRun();
      const heard: (CancelSignal | undefined)[] = [];
      b.onCancel(run.threadId, run.runId, (signal) => heard.push(signal));

      await a.publishCancel({ ...run, requestedAt: 1_700_000_000_000 });

      await until(() => heard.length > 0, 'the cancel on the other instance');
      expect(heard[0]).toEqual({ ...run, requestedAt: 1_700_000_000_000 });
    });

    it('delivers a cancel to a run that subscribes after it was published', async () => {
      const [a, b] = await fixture.instances(2);
      const run = freshRun();
      await a.publishCancel(run);
      await drain(a, b);

      let heard = 0;
      b.onCancel(run.threadId, run.runId, () => heard++);

      await until(() => heard > 0, 'the earlier cancel');
    });

    it('does not deliver a cancel to another run, nor after unsubscribing', async () => {
      const [a, b] = await fixture.instances(2);
      const [run, other, left] = [freshRun(), freshRun(), freshRun()];
      let wrong = 0;
      b.onCancel(other.threadId, other.runId, () => wrong++);
      b.onCancel(run.threadId, other.runId, () => wrong++);
      b.onCancel(left.threadId, left.runId, () => wrong++)();

      await a.publishCancel(run);
      await a.publishCancel(left);
      await drain(a, b);

      expect(wrong).toBe(0);
    });

    it('tells every instance that a run ended, with its status and reason', async () => {
      const [a, b] = await fixture.instances(2);
      const run = freshRun();
      const heard: RunEndedSignal[] = [];
      const heardAny: RunEndedSignal[] = [];
      b.onRunEnded(run.threadId, run.runId, (signal) => heard.push(signal));
      const stopAny = b.onAnyRunEnded?.(
        (signal) => signal.runId === run.runId && heardAny.push(signal),
      );

      await a.publishRunEnded(ended(run));

      await until(
        () => heard.length > 0 && (!stopAny || heardAny.length > 0),
        'the run end on the other instance',
      );
      expect(heard[0]).toEqual(ended(run));
      if (stopAny) expect(heardAny[0]).toEqual(ended(run));
      stopAny?.();
    });

    it('forgets a cancel once every instance heard its run end: a retry under the same run id is not canceled', async () => {
      const [a, b] = await fixture.instances(2);
      const run = freshRun();
      await a.publishCancel(run);
      let heardEnd = false;
      b.onRunEnded(run.threadId, run.runId, () => (heardEnd = true));
      await a.publishRunEnded(ended(run));
      await until(() => heardEnd, 'the run end');
      // Each instance applies the transport's messages in its order, its own echoes included:
      // once a later marker went each way, both have applied the run's end after its cancel.
      await drain(b, a);
      await drain(a, b);

      let canceled = 0;
      b.onCancel(run.threadId, run.runId, () => canceled++);
      a.onCancel(run.threadId, run.runId, () => canceled++);
      await drain(a, b);
      await drain(b, a);

      expect(canceled).toBe(0);
    });

    it('reports a connected transport', async () => {
      const [a] = await fixture.instances(1);

      expect(a.health?.().connected ?? true).toBe(true);
    });
  });
}
