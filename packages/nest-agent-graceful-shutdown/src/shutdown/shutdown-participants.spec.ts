import { Logger, type LoggerService } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { ShutdownParticipants } from './shutdown-participants.js';

// The participants log timeouts and failures; the assertions below are what matters here.
beforeAll(() => Logger.overrideLogger(false));
afterEach(() => Logger.overrideLogger(false));

/** A promise the test settles by hand. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Lets every pending microtask and the current macrotask's callbacks run. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Tracks whether a promise has settled, through a flag set by its `.then`. */
function track(promise: Promise<unknown>): { readonly settled: boolean } {
  const state = { settled: false };
  void promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

/** A logger that keeps the warnings, to see what the participants report. */
function captureWarnings(): unknown[] {
  const warnings: unknown[] = [];
  const logger: LoggerService = {
    log: () => undefined,
    error: () => undefined,
    warn: (message: unknown) => warnings.push(message),
  };
  Logger.overrideLogger(logger);
  return warnings;
}

describe('ShutdownParticipants handlers', () => {
  it('runs the handlers in registration order, giving each the shutdown reason', async () => {
    const participants = new ShutdownParticipants();
    const calls: string[] = [];
    participants.addHandler((reason) => void calls.push(`first:${reason}`));
    participants.addHandler(async (reason) => void calls.push(`second:${reason}`));
    participants.addHandler((reason) => void calls.push(`third:${reason}`));

    await participants.settle('SIGTERM');

    expect(calls).toEqual(['first:SIGTERM', 'second:SIGTERM', 'third:SIGTERM']);
  });

  it('starts a handler only after the previous one has finished', async () => {
    const participants = new ShutdownParticipants();
    const first = deferred();
    const calls: string[] = [];
    participants.addHandler(async () => {
      calls.push('first started');
      await first.promise;
      calls.push('first finished');
    });
    participants.addHandler(() => void calls.push('second started'));

    const settle = participants.settle('SIGTERM');
    await nextTurn();
    expect(calls).toEqual(['first started']);
    first.resolve();
    await settle;

    expect(calls).toEqual(['first started', 'first finished', 'second started']);
  });

  it('runs the later handlers and resolves settle when a handler throws', async () => {
    const participants = new ShutdownParticipants();
    const calls: string[] = [];
    participants.addHandler(() => {
      throw new Error('consumer already gone');
    });
    participants.addHandler(() => void calls.push('after the throw'));

    await expect(participants.settle('SIGTERM')).resolves.toBeUndefined();

    expect(calls).toEqual(['after the throw']);
  });

  it('runs the later handlers and resolves settle when a handler rejects', async () => {
    const participants = new ShutdownParticipants();
    const calls: string[] = [];
    participants.addHandler(async () => {
      throw new Error('flush failed');
    });
    participants.addHandler(() => void calls.push('after the rejection'));

    await expect(participants.settle('SIGTERM')).resolves.toBeUndefined();

    expect(calls).toEqual(['after the rejection']);
  });

  it('abandons a handler that never settles once its timeoutMs has passed, then runs the next one', async () => {
    const participants = new ShutdownParticipants();
    const stuck = new Promise<void>(() => undefined);
    const stuckState = track(stuck);
    const calls: string[] = [];
    participants.addHandler(() => stuck, { name: 'stuck', timeoutMs: 50 });
    participants.addHandler(() => void calls.push('next'));

    const startedAt = performance.now();
    await participants.settle('SIGTERM');
    const elapsedMs = performance.now() - startedAt;

    expect(stuckState.settled).toBe(false);
    expect(calls).toEqual(['next']);
    // It waited for the handler's timeout rather than skipping it (a little slack for timer precision).
    expect(elapsedMs).toBeGreaterThanOrEqual(40);
    expect(elapsedMs).toBeLessThan(5_000);
  });

  it('reports a handler that timed out by its name', async () => {
    const warnings = captureWarnings();
    const participants = new ShutdownParticipants();
    participants.addHandler(() => new Promise<void>(() => undefined), {
      name: 'queue',
      timeoutMs: 20,
    });

    await participants.settle('SIGTERM');

    expect(warnings).toEqual([
      expect.objectContaining({
        msg: 'shutdown participant timed out',
        name: 'queue',
        timeoutMs: 20,
      }),
    ]);
  });

  it('does not run a handler that was unregistered', async () => {
    const participants = new ShutdownParticipants();
    const calls: string[] = [];
    participants.addHandler(() => void calls.push('kept before'));
    const unregister = participants.addHandler(() => void calls.push('unregistered'));
    participants.addHandler(() => void calls.push('kept after'));

    unregister();
    await participants.settle('SIGTERM');

    expect(calls).toEqual(['kept before', 'kept after']);
  });
});

describe('ShutdownParticipants holds', () => {
  it('keeps settle pending until the held promise resolves', async () => {
    const participants = new ShutdownParticipants();
    const job = deferred();
    participants.holdUntil(job.promise, { name: 'job' });

    const settle = participants.settle('SIGTERM');
    const settleState = track(settle);
    await nextTurn();

    expect(settleState.settled).toBe(false);
    job.resolve();
    await settle;
    expect(settleState.settled).toBe(true);
  });

  it('waits for a hold taken by a handler while the shutdown runs', async () => {
    const participants = new ShutdownParticipants();
    const lastJob = deferred();
    participants.addHandler(() => participants.holdUntil(lastJob.promise, { name: 'last job' }));

    const settle = participants.settle('SIGTERM');
    const settleState = track(settle);
    await nextTurn();

    expect(settleState.settled).toBe(false);
    lastJob.resolve();
    await settle;
    expect(settleState.settled).toBe(true);
  });

  it('stops waiting for a hold that never settles once its timeoutMs has passed', async () => {
    const participants = new ShutdownParticipants();
    const never = new Promise<void>(() => undefined);
    const neverState = track(never);
    participants.holdUntil(never, { timeoutMs: 50 });

    await participants.settle('SIGTERM');

    expect(neverState.settled).toBe(false);
  });

  it('does not delay the shutdown with a hold that settled before it started', async () => {
    const participants = new ShutdownParticipants();
    const job = deferred();
    participants.holdUntil(job.promise, { timeoutMs: 60_000 });
    job.resolve();
    await job.promise;

    const startedAt = performance.now();
    await participants.settle('SIGTERM');

    expect(performance.now() - startedAt).toBeLessThan(1_000);
  });

  it('forgets a hold that failed before the shutdown started instead of reporting it as a shutdown failure', async () => {
    const warnings = captureWarnings();
    const participants = new ShutdownParticipants();
    const failed = Promise.reject(new Error('job failed long ago'));
    participants.holdUntil(failed, { name: 'old job' });
    await failed.catch(() => undefined);
    await nextTurn();

    await participants.settle('SIGTERM');

    expect(warnings).toEqual([]);
  });

  it('reports a hold that fails during the shutdown and still resolves settle', async () => {
    const warnings = captureWarnings();
    const participants = new ShutdownParticipants();
    let fail!: (error: Error) => void;
    const job = new Promise<void>((_resolve, reject) => (fail = reject));
    participants.holdUntil(job, { name: 'flush' });

    const settle = participants.settle('SIGTERM');
    fail(new Error('flush failed'));

    await expect(settle).resolves.toBeUndefined();
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: 'shutdown participant failed',
        name: 'flush',
        error: 'Error: flush failed',
      }),
    ]);
  });
});
