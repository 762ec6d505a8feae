import { Logger, type LoggerService } from '@nestjs/common';
import { resolveShutdownOptions } from '../options/resolve-shutdown-options.js';
import { InProcessSignalBus } from '../signals/in-process-signal-bus.js';
import { AgentTelemetry } from '../telemetry/agent-telemetry.js';
import { InFlightRunRegistry } from '../lifecycle/in-flight-run.registry.js';
import { ShutdownCoordinator } from './shutdown-coordinator.service.js';

/** Keeps the coordinator's structured lines, with their level. */
class LineCapture implements LoggerService {
  readonly lines: Array<Record<string, unknown> & { level: string }> = [];
  log(message: unknown): void {
    this.keep('log', message);
  }
  warn(message: unknown): void {
    this.keep('warn', message);
  }
  error(message: unknown): void {
    this.keep('error', message);
  }
  private keep(level: string, message: unknown): void {
    if (typeof message === 'object' && message !== null)
      this.lines.push({ level, ...(message as Record<string, unknown>) });
  }
}

let capture: LineCapture;
beforeEach(() => {
  capture = new LineCapture();
  Logger.overrideLogger(capture);
});
afterAll(() => Logger.overrideLogger(false));

function setup() {
  const registry = new InFlightRunRegistry();
  const telemetry = new AgentTelemetry(registry, new InProcessSignalBus());
  const abandoned: string[] = [];
  telemetry.observe({
    toolCallAbandoned: (threadId, runId, tool) =>
      void abandoned.push(`${threadId}/${runId}/${tool}`),
  });
  const options = resolveShutdownOptions({
    shutdown: { handleSignals: false, drainTimeoutMs: 0, timeoutMs: 5_000 },
  });
  return {
    registry,
    abandoned,
    coordinator: new ShutdownCoordinator(options, registry, undefined, telemetry),
  };
}

describe('ShutdownCoordinator and tool calls still running at exit', () => {
  it('names each once at warn, counts it, and puts the count on the runs drained line', async () => {
    const { registry, abandoned, coordinator } = setup();
    registry.toolCallsLeftRunning.add(
      { threadId: 't1', runId: 'r1', call: { id: 'c1', name: 'stubborn', arguments: '{}' } },
      new Promise(() => undefined),
    );

    await coordinator.shutdown();

    const warned = capture.lines.filter((line) => line.msg === 'tool call abandoned');
    expect(warned).toEqual([
      {
        level: 'warn',
        msg: 'tool call abandoned',
        threadId: 't1',
        runId: 'r1',
        toolCallId: 'c1',
        tool: 'stubborn',
      },
    ]);
    expect(abandoned).toEqual(['t1/r1/stubborn']);
    expect(capture.lines.find((line) => line.msg === 'runs drained')).toMatchObject({
      abandonedToolCalls: 1,
    });
  });

  it('says nothing of a tool call whose work settled before the end', async () => {
    const { registry, abandoned, coordinator } = setup();
    registry.toolCallsLeftRunning.add(
      { threadId: 't1', runId: 'r1', call: { id: 'c1', name: 'late', arguments: '{}' } },
      Promise.resolve('done'),
    );
    await Promise.resolve();

    await coordinator.shutdown();

    expect(capture.lines.filter((line) => line.msg === 'tool call abandoned')).toEqual([]);
    expect(abandoned).toEqual([]);
    expect(capture.lines.find((line) => line.msg === 'runs drained')).toMatchObject({
      abandonedToolCalls: 0,
    });
  });
});
