import { Logger, type LoggerService } from '@nestjs/common';
import { RunControl } from '../agent/run-control.js';
import { StopReason } from '../agent/stop-reason.js';
import { resolveShutdownOptions } from '../options/resolve-shutdown-options.js';
import { InFlightRunRegistry } from '../lifecycle/in-flight-run.registry.js';
import { ShutdownCoordinator } from './shutdown-coordinator.service.js';

/** Keeps the coordinator's structured lines. */
class LineCapture implements LoggerService {
  readonly lines: Record<string, unknown>[] = [];
  log(message: unknown): void {
    if (typeof message === 'object' && message !== null)
      this.lines.push(message as Record<string, unknown>);
  }
  error(): void {}
  warn(): void {}
}

let capture: LineCapture;
beforeEach(() => {
  capture = new LineCapture();
  Logger.overrideLogger(capture);
});
afterAll(() => Logger.overrideLogger(false));

/** A coordinator with a drain of `drainTimeoutMs`, and runs that end when told (the way the shutdown hook unregisters them). */
function setup(drainTimeoutMs: number) {
  const registry = new InFlightRunRegistry();
  const options = resolveShutdownOptions({
    shutdown: { handleSignals: false, drainTimeoutMs, timeoutMs: drainTimeoutMs + 5_000 },
  });
  const coordinator = new ShutdownCoordinator(options, registry);
  const run = (runId: string) => {
    const control = new RunControl();
    const end = registry.register({ threadId: `t-${runId}`, runId, control });
    return { control, end };
  };
  const drained = () => capture.lines.find((line) => line.msg === 'runs drained');
  return { coordinator, run, drained };
}

describe('ShutdownCoordinator runs drained line', () => {
  it('counts a run the drain stopped at a safe point as interrupted, though nothing requested its stop', async () => {
    const { coordinator, run, drained } = setup(10_000);
    const stoppedByDeadlineCheck = run('r1');

    const shutdown = coordinator.shutdown();
    stoppedByDeadlineCheck.end(StopReason.Interrupted);
    await shutdown;

    expect(drained()).toMatchObject({
      inFlight: 1,
      completed: 0,
      interrupted: 1,
      canceled: 0,
      failed: 0,
      awaitingApproval: 0,
    });
  });

  it('counts each run by how it ended: completed in the drain, canceled, and interrupted when the drain ran out', async () => {
    const { coordinator, run, drained } = setup(0);
    const finishing = run('r1');
    const canceled = run('r2');
    const cut = run('r3');
    // Each run ends once the shutdown asks it to stop, as the shutdown hook does.
    finishing.control.signal.addEventListener('abort', () => finishing.end(StopReason.Completed));
    cut.control.signal.addEventListener('abort', () => cut.end(StopReason.Interrupted));
    canceled.control.requestStop(StopReason.Canceled, 'user');

    const shutdown = coordinator.shutdown();
    canceled.end(StopReason.Canceled);
    await shutdown;

    expect(drained()).toMatchObject({
      inFlight: 3,
      completed: 1,
      interrupted: 1,
      canceled: 1,
      failed: 0,
      awaitingApproval: 0,
    });
  });

  it('does not count runs that ended before the shutdown', async () => {
    const { coordinator, run, drained } = setup(0);
    run('r1').end(StopReason.Completed);

    await coordinator.shutdown();

    expect(drained()).toMatchObject({ inFlight: 0, completed: 0, interrupted: 0 });
  });
});
