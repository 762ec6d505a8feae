import { deafDemoTool } from './support/deaf-demo-tool';
import { runInput, tokenFor } from './support/http';
import { ServiceProcess } from './support/service-process';
import { startRun, type AgUiEvent, type RunStream } from './support/sse';
import { toolLedger } from './support/tool-ledger';
import { waitFor } from 'dev-services';

const user = tokenFor('tess');

/** The service's JSON log lines whose `msg` is `msg`. */
const linesOf = (service: ServiceProcess, msg: string) =>
  service.logs
    .split('\n')
    .filter((line) => line.includes(`"${msg}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('a tool that ignores its abort signal, at a SIGTERM', () => {
  let service: ServiceProcess;
  let deaf: RunStream;
  let drained: RunStream;
  let exitCode: number | null;
  let deafCallId: string;

  beforeAll(async () => {
    service = await ServiceProcess.start({
      env: {
        ...deafDemoTool(),
        DEMO_STEPS: '1',
        DEMO_REASONING_MS: '1000',
        DEMO_TOOL_MS: '60000',
        SHUTDOWN_DRAIN_TIMEOUT_MS: '5000',
        SHUTDOWN_TIMEOUT_MS: '15000',
      },
    });
    // One run is inside the tool that will not stop; the other still reasons when the SIGTERM comes.
    deaf = await startRun(
      service.baseUrl,
      user,
      runInput('thread-deaf', 'run-1', [{ id: 'deaf-u1', content: 'one step' }]),
    );
    await waitFor(
      () => toolLedger([service], 'demo tool started', 'thread-deaf').length === 1,
      'the deaf tool to start',
    );
    deafCallId = toolLedger([service], 'demo tool started', 'thread-deaf')[0];
    drained = await startRun(
      service.baseUrl,
      user,
      runInput('thread-drained', 'run-1', [{ id: 'drained-u1', content: 'one step' }]),
    );
    await drained.waitForEvent(
      (e: AgUiEvent) => e.type === 'STEP_STARTED' && e.stepName === 'reasoning',
      'the second run reasoning',
    );

    service.kill('SIGTERM');
    exitCode = (await service.waitForExit(20_000)).code;
  });
  afterAll(() => service?.stop());

  it('exits 0 at the SIGTERM without waiting for the tool, and ends its run RUN_INTERRUPTED', async () => {
    expect(exitCode).toBe(0);
    expect(await deaf.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
    expect(toolLedger([service], 'demo tool finished', 'thread-deaf')).toEqual([]);
  });

  it('logs the abandoned tool call once, at warn, by name with its ids', () => {
    expect(linesOf(service, 'tool call abandoned')).toEqual([
      expect.objectContaining({
        level: 'warn',
        threadId: 'thread-deaf',
        runId: 'run-1',
        toolCallId: deafCallId,
        tool: 'demo_step',
      }),
    ]);
  });

  it('counts the runs as the drain saw them, and the abandoned call, on the runs drained line', () => {
    expect(linesOf(service, 'runs drained')).toEqual([
      expect.objectContaining({
        inFlight: 2,
        completed: 0,
        interrupted: 2,
        canceled: 0,
        failed: 0,
        awaitingApproval: 0,
        abandonedToolCalls: 1,
      }),
    ]);
  });
});
