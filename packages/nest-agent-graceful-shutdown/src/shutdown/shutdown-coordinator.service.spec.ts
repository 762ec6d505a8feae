import { Logger } from '@nestjs/common';
import { ShuttingDownError } from '../errors/shutting-down.error.js';
import { resolveShutdownOptions } from '../options/resolve-shutdown-options.js';
import { InFlightRunRegistry } from '../lifecycle/in-flight-run.registry.js';
import { ShutdownCoordinator } from './shutdown-coordinator.service.js';

// The coordinator logs every phase; the assertions below are what matters here.
beforeAll(() => Logger.overrideLogger(false));

function coordinator(retryAfterSeconds = 2): { coordinator: ShutdownCoordinator } {
  const options = resolveShutdownOptions({ shutdown: { handleSignals: false, retryAfterSeconds } });
  return { coordinator: new ShutdownCoordinator(options, new InFlightRunRegistry()) };
}

describe('ShutdownCoordinator admission', () => {
  it('accepts runs while serving', () => {
    const { coordinator: subject } = coordinator();

    expect(subject.isShuttingDown).toBe(false);
    expect(() => subject.assertAcceptingRuns()).not.toThrow();
  });

  it('returns the same promise when shutdown is called twice', async () => {
    const { coordinator: subject } = coordinator();

    const first = subject.shutdown();

    expect(subject.shutdown('again')).toBe(first);
    await first;
  });

  it('reports shutting down as soon as shutdown is called', async () => {
    const { coordinator: subject } = coordinator();

    const shutdown = subject.shutdown();

    expect(subject.isShuttingDown).toBe(true);
    await shutdown;
  });

  it('refuses new runs with a ShuttingDownError that carries retryAfterSeconds once shutting down', async () => {
    const { coordinator: subject } = coordinator(7);
    const shutdown = subject.shutdown();

    let refusal: unknown;
    try {
      subject.assertAcceptingRuns();
    } catch (error) {
      refusal = error;
    }

    expect(refusal).toBeInstanceOf(ShuttingDownError);
    expect(refusal).toMatchObject({ retryAfterSeconds: 7, code: 'SHUTTING_DOWN' });
    expect((refusal as ShuttingDownError).getStatus()).toBe(503);
    await shutdown;
  });

  it('completes a shutdown with nothing in flight and ends in the done phase', async () => {
    const { coordinator: subject } = coordinator();

    await expect(subject.shutdown()).resolves.toBeUndefined();

    expect(subject.phase).toBe('done');
  });
});
