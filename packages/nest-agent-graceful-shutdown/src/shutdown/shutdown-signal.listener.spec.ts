import { Logger } from '@nestjs/common';
import { resolveShutdownOptions } from '../options/resolve-shutdown-options.js';
import type { ApplicationCloser } from '../lifecycle/application-closer.js';
import { InFlightRunRegistry } from '../lifecycle/in-flight-run.registry.js';
import { ShutdownCoordinator } from './shutdown-coordinator.service.js';
import { ShutdownSignalListener } from './shutdown-signal.listener.js';
import { waitFor } from 'dev-services';

// The listener and the coordinator log every step; the assertions below are what matters here.
beforeAll(() => Logger.overrideLogger(false));

/** Never a real OS signal: only `process.emit`, which reaches the listeners and nothing else. */
const SIGNAL = 'SIGUSR2' as const;

/** A promise the test settles by hand. */
function deferred(): {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
} {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** Lets every pending microtask and the current macrotask's callbacks (the listener's setImmediate) run. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface SetupOptions {
  timeoutMs?: number;
  handleSignals?: boolean;
  /** What the application's close does after the module's own hooks; resolves by default. */
  afterModuleDestroy?: () => Promise<void>;
}

let listeners: ShutdownSignalListener[] = [];
let baseline: Array<(...args: unknown[]) => void> = [];

beforeEach(() => {
  listeners = [];
  baseline = process.listeners(SIGNAL) as Array<(...args: unknown[]) => void>;
});

afterEach(() => {
  for (const listener of listeners) listener.onApplicationShutdown();
  for (const leftover of process.listeners(SIGNAL))
    if (!baseline.includes(leftover as (...args: unknown[]) => void)) process.off(SIGNAL, leftover);
});

function setup(options: SetupOptions = {}) {
  const resolved = resolveShutdownOptions({
    shutdown: {
      signals: [SIGNAL],
      timeoutMs: options.timeoutMs ?? 10_000,
      drainTimeoutMs: 0,
      handleSignals: options.handleSignals,
    },
  });
  const coordinator = new ShutdownCoordinator(resolved, new InFlightRunRegistry());
  const closes: Array<string | undefined> = [];
  // Nest's close sequence: the module's onModuleDestroy (the drain) first, then the other hooks.
  const closer = {
    close: async (signal?: string) => {
      closes.push(signal);
      await coordinator.onModuleDestroy();
      await options.afterModuleDestroy?.();
    },
  } as unknown as ApplicationCloser;
  const exits: number[] = [];
  const listener = new ShutdownSignalListener(
    resolved,
    coordinator,
    closer,
    (code) => void exits.push(code),
  );
  listeners.push(listener);
  return { listener, coordinator, closes, exits };
}

describe('ShutdownSignalListener', () => {
  it('subscribes to the configured signals at bootstrap', () => {
    const { listener } = setup();
    const before = process.listenerCount(SIGNAL);

    listener.onApplicationBootstrap();

    expect(process.listenerCount(SIGNAL)).toBe(before + 1);
  });

  it('starts the drain synchronously when the first signal arrives', async () => {
    const { listener, coordinator, exits } = setup();
    listener.onApplicationBootstrap();

    process.emit(SIGNAL, SIGNAL);

    expect(coordinator.isShuttingDown).toBe(true);
    // Let the close it started finish inside this test.
    await waitFor(() => exits.length > 0, 'the exit', 5_000);
  });

  it('closes the application once through the closer and exits 0 after the first signal', async () => {
    const { listener, coordinator, closes, exits } = setup();
    listener.onApplicationBootstrap();

    process.emit(SIGNAL, SIGNAL);
    await waitFor(() => exits.length > 0, 'the exit', 5_000);

    expect(closes).toEqual([SIGNAL]);
    expect(exits).toEqual([0]);
    expect(coordinator.phase).toBe('done');
  });

  it('stops listening once it has exited', async () => {
    const { listener, exits } = setup();
    const before = process.listenerCount(SIGNAL);
    listener.onApplicationBootstrap();

    process.emit(SIGNAL, SIGNAL);
    await waitFor(() => exits.length > 0, 'the exit', 5_000);

    expect(process.listenerCount(SIGNAL)).toBe(before);
  });

  it('ignores a second signal while the application is closing', async () => {
    const hostHooks = deferred();
    const { listener, closes, exits } = setup({ afterModuleDestroy: () => hostHooks.promise });
    listener.onApplicationBootstrap();

    process.emit(SIGNAL, SIGNAL);
    await waitFor(() => closes.length > 0, 'the close to start', 5_000);
    process.emit(SIGNAL, SIGNAL);
    await nextTurn();

    expect(closes).toHaveLength(1);
    expect(exits).toEqual([]);
    hostHooks.resolve();
    await waitFor(() => exits.length > 0, 'the exit', 5_000);
    expect(closes).toHaveLength(1);
    expect(exits).toEqual([0]);
  });

  it('exits 1 when closing the application fails', async () => {
    const { listener, closes, exits } = setup({
      afterModuleDestroy: async () => Promise.reject(new Error('a host hook threw')),
    });
    listener.onApplicationBootstrap();

    process.emit(SIGNAL, SIGNAL);
    await waitFor(() => exits.length > 0, 'the exit', 5_000);

    expect(closes).toEqual([SIGNAL]);
    expect(exits).toEqual([1]);
  });

  it('exits 1 at the hard deadline when closing the application never finishes', async () => {
    const { listener, closes, exits } = setup({
      timeoutMs: 200,
      afterModuleDestroy: () => new Promise<void>(() => undefined),
    });
    listener.onApplicationBootstrap();

    process.emit(SIGNAL, SIGNAL);
    await waitFor(() => closes.length > 0, 'the close to start', 5_000);
    expect(exits).toEqual([]);
    await waitFor(() => exits.length > 0, 'the deadline exit', 5_000);

    expect(exits).toEqual([1]);
  });

  describe('when the host closes the application itself (enableShutdownHooks)', () => {
    /**
     * Stands in for Nest's enableShutdownHooks listener: in the signal's own turn the close
     * reaches the module's onModuleDestroy; once closed, the listener removes itself (and Nest
     * then sends the signal to the process again).
     */
    function hostShutdownHooks(coordinator: ShutdownCoordinator): { closed: Promise<void> } {
      const closed = deferred();
      const hostListener = () => {
        void coordinator.onModuleDestroy().then(() => {
          process.off(SIGNAL, hostListener);
          closed.resolve();
        });
      };
      process.on(SIGNAL, hostListener);
      return { closed: closed.promise };
    }

    it('leaves the close to the host and does not call the closer', async () => {
      const { listener, coordinator, closes, exits } = setup();
      listener.onApplicationBootstrap();
      const host = hostShutdownHooks(coordinator);

      process.emit(SIGNAL, SIGNAL);
      await host.closed;
      await nextTurn();

      expect(coordinator.applicationClosing).toBe(true);
      expect(closes).toEqual([]);
      expect(exits).toEqual([]);
    });

    it('leaves the close to the host when the host close reaches the module in the same turn as the signal', async () => {
      const { listener, coordinator, closes, exits } = setup();
      listener.onApplicationBootstrap();

      process.emit(SIGNAL, SIGNAL);
      const hostClose = coordinator.onModuleDestroy();
      await hostClose;
      await nextTurn();

      expect(closes).toEqual([]);
      expect(exits).toEqual([]);
    });

    it('exits 0 on the repeated signal once it is the only listener left', async () => {
      const { listener, coordinator, closes, exits } = setup();
      listener.onApplicationBootstrap();
      const host = hostShutdownHooks(coordinator);

      process.emit(SIGNAL, SIGNAL);
      await host.closed;
      await nextTurn();
      expect(process.listenerCount(SIGNAL)).toBe(baseline.length + 1);
      process.emit(SIGNAL, SIGNAL);

      expect(exits).toEqual([0]);
      expect(closes).toEqual([]);
    });

    it('ignores a repeated signal while the host listener is still there', async () => {
      const { listener, coordinator, closes, exits } = setup();
      listener.onApplicationBootstrap();
      // The host's close has reached the module but is not over: its listener is still attached.
      process.on(SIGNAL, () => void coordinator.onModuleDestroy());

      process.emit(SIGNAL, SIGNAL);
      await nextTurn();
      process.emit(SIGNAL, SIGNAL);

      expect(exits).toEqual([]);
      expect(closes).toEqual([]);
    });
  });

  it('subscribes to nothing when handleSignals is false', () => {
    const { listener } = setup({ handleSignals: false });
    const before = process.listenerCount(SIGNAL);

    listener.onApplicationBootstrap();

    expect(process.listenerCount(SIGNAL)).toBe(before);
  });

  it('ends the subscription when the application closes without a signal', () => {
    const { listener } = setup();
    const before = process.listenerCount(SIGNAL);
    listener.onApplicationBootstrap();

    listener.onApplicationShutdown();

    expect(process.listenerCount(SIGNAL)).toBe(before);
  });
});
