import { freePort, waitFor } from 'dev-services';
import { api, runInput, tokenFor } from './support/http';
import { scrape } from './support/metrics-scrape';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { joinRun, startRun } from './support/sse';

const user = tokenFor('olga');

/** The contract's metric families. */
const CONTRACT_METRICS = [
  'agent_runs_in_flight',
  'agent_runs_total',
  'agent_run_resumes_total',
  'agent_shutdown_duration_seconds',
  'agent_checkpoint_duration_seconds',
  'agent_cancel_delivery_seconds',
  'agent_lease_lost_total',
  'agent_signal_bus_connected',
  'agent_stream_joins_total',
];

describe('GET /metrics', () => {
  const services = new ServiceGroup();
  let service: ServiceProcess;
  beforeAll(async () => {
    service = await services.start({ env: { DEMO_STEPS: '2' } });
  });
  afterAll(() => services.stopAll());

  it('serves every metric of the contract and the process metrics in Prometheus text format, without a token', async () => {
    const metrics = await scrape(service.baseUrl);

    expect(metrics.status).toBe(200);
    expect(metrics.contentType).toMatch(/^text\/plain;.*version=0\.0\.4/);
    for (const name of CONTRACT_METRICS) expect(metrics.text).toContain(`# TYPE ${name} `);
    expect(metrics.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(metrics.value('agent_signal_bus_connected')).toBe(1);
    expect(metrics.value('agent_runs_total', { outcome: 'handed_over' })).toBe(0);
  });

  it('counts a completed run, its checkpoints and a join of its stream', async () => {
    const before = await scrape(service.baseUrl);
    const run = await startRun(
      service.baseUrl,
      user,
      runInput('metrics-done', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    expect(await run.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    const joined = await joinRun(service.baseUrl, user, 'metrics-done');
    await joined.done;

    const after = await scrape(service.baseUrl);
    const delta = (name: string, labels?: Record<string, string>) =>
      (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);
    expect(delta('agent_runs_total', { outcome: 'completed' })).toBe(1);
    expect(delta('agent_checkpoint_duration_seconds_count')).toBeGreaterThanOrEqual(5);
    expect(delta('agent_stream_joins_total')).toBe(1);
    expect(after.value('agent_runs_in_flight')).toBe(0);
  });

  it('shows a run in flight while it runs, and counts a cancel with the time it took to stop the run', async () => {
    const run = await startRun(
      service.baseUrl,
      user,
      runInput('metrics-cancel', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    await run.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'a tool call');
    expect((await scrape(service.baseUrl)).value('agent_runs_in_flight')).toBe(1);

    const cancel = await api(service.baseUrl, '/v1/runs/metrics-cancel/cancel?waitMs=10000', {
      method: 'POST',
      token: user,
    });
    expect(cancel.body).toMatchObject({ stopped: true, stopReason: 'canceled' });

    const after = await scrape(service.baseUrl);
    expect(after.value('agent_runs_total', { outcome: 'canceled' })).toBe(1);
    expect(after.value('agent_cancel_delivery_seconds_count')).toBe(1);
    expect(after.value('agent_cancel_delivery_seconds_sum')).toBeGreaterThan(0);
    expect(after.value('agent_cancel_delivery_seconds_bucket', { le: '10' })).toBe(1);
    expect(after.value('agent_runs_in_flight')).toBe(0);
  });

  it('writes JSON lines with the request id, the thread and the run, and neither tokens nor message contents', async () => {
    const run = await startRun(
      service.baseUrl,
      user,
      runInput('log-lines', 'run-7', [{ id: 'u1', content: 'the word is persimmon' }]),
    );
    await run.terminal();
    const echoed = await fetch(`${service.baseUrl}/v1/threads/log-lines`, {
      headers: { authorization: `Bearer ${user}`, 'x-request-id': 'req-from-client-1' },
    });
    expect(echoed.headers.get('x-request-id')).toBe('req-from-client-1');

    const parsed = () =>
      service.logs
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, any>);
    // The request's own line is written once its response has gone out.
    const lines = await waitFor(
      () => (parsed().some((line) => line.req?.id === 'req-from-client-1') ? parsed() : undefined),
      'the request line',
    );
    const ofRun = lines.filter((line) => line.runId === 'run-7');
    expect(ofRun.map((line) => line.msg)).toEqual(
      expect.arrayContaining([
        'run started',
        'demo tool started',
        'run ended',
        'request completed',
      ]),
    );
    for (const line of ofRun)
      expect(line).toMatchObject({
        threadId: 'log-lines',
        req: { id: expect.any(String), method: 'POST', url: '/v1/runs' },
      });
    expect(new Set(ofRun.map((line) => line.req.id)).size).toBe(1);
    expect(lines.find((line) => line.req?.id === 'req-from-client-1')).toMatchObject({
      threadId: 'log-lines',
      res: { statusCode: 200 },
    });
    expect(service.logs).not.toContain('persimmon');
    expect(service.logs).not.toContain(user);
    expect(service.logs.toLowerCase()).not.toContain('authorization');
  });
});

describe('GET /metrics around a shutdown', () => {
  const services = new ServiceGroup();
  afterAll(() => services.stopAll());

  it('shows the drain as it happens, and the client resume on the next process', async () => {
    const first = await services.start({
      env: {
        SHUTDOWN_DRAIN_TIMEOUT_MS: '1500',
        SHUTDOWN_TIMEOUT_MS: '10000',
        DEMO_STEPS: '8',
        DEMO_TOOL_MS: '400',
      },
    });
    const long = runInput('drain-long', 'run-1', [{ id: 'u1', content: 'go' }]);
    const longRun = await startRun(first.baseUrl, user, long);
    await longRun.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the long run to act');
    expect((await scrape(first.baseUrl)).value('agent_runs_in_flight')).toBe(1);

    first.kill('SIGTERM');
    const draining = await waitFor(
      async () => {
        const ready = await fetch(`${first.baseUrl}/health/ready`);
        const metrics = await scrape(first.baseUrl);
        return ready.status === 503 && metrics.status === 200 ? metrics : undefined;
      },
      'a scrape during the drain',
      3_000,
    );
    expect(draining.value('agent_runs_in_flight')).toBe(1);
    expect((await first.waitForExit(15_000)).code).toBe(0);
    expect(await longRun.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
    const drained = first.logs.split('\n').find((line) => line.includes('"runs drained"'));
    // The run stopped within the drain, at a step that would have outlasted it: no interrupt phase was needed.
    // It is counted as interrupted though nothing but the drain's own check stopped it.
    expect(JSON.parse(drained ?? '{}')).toMatchObject({
      inFlight: 1,
      interrupted: 1,
      phaseMs: { drain: expect.any(Number), close: expect.any(Number) },
    });

    const second = await services.restart(first);
    expect(await (await startRun(second.baseUrl, user, long)).terminal()).toMatchObject({
      type: 'RUN_FINISHED',
    });
    const after = await scrape(second.baseUrl);
    expect(after.value('agent_run_resumes_total', { mode: 'client' })).toBe(1);
    expect(after.value('agent_runs_total', { outcome: 'completed' })).toBe(1);
  });

  it('counts on the runs drained line the tokens of a model call the shutdown cut off', async () => {
    const service = await services.start({
      env: {
        SHUTDOWN_DRAIN_TIMEOUT_MS: '300',
        SHUTDOWN_TIMEOUT_MS: '10000',
        DEMO_STEPS: '1',
        DEMO_REASONING_MS: '30000',
      },
    });
    const question = 'x'.repeat(400);
    const run = await startRun(
      service.baseUrl,
      user,
      runInput('drain-cut', 'run-1', [{ id: 'u1', content: question }]),
    );
    await run.waitForEvent((e) => e.type === 'STEP_STARTED', 'the model call to start');

    service.kill('SIGTERM');

    expect((await service.waitForExit(15_000)).code).toBe(0);
    const drained = JSON.parse(
      service.logs.split('\n').find((line) => line.includes('"runs drained"')) ?? '{}',
    );
    // The call was sent at least the question (4 characters a token) and had streamed nothing.
    expect(drained).toMatchObject({ interrupted: 1, tokensDiscarded: { output: 0 } });
    expect(drained.tokensDiscarded.input).toBeGreaterThanOrEqual(question.length / 4);
  });

  it('answers 404 with METRICS_ENABLED=false', async () => {
    const service = await services.start({ env: { METRICS_ENABLED: 'false' } });
    const metrics = await scrape(service.baseUrl);
    expect(metrics.status).toBe(404);
    expect(JSON.parse(metrics.text)).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });
});

describe('GET /metrics on METRICS_PORT', () => {
  const services = new ServiceGroup();
  afterAll(() => services.stopAll());

  it('serves every metric of the contract on the metrics port only, through a run and its shutdown, and exits 0', async () => {
    const metricsPort = await freePort();
    const service = await services.start({
      env: { METRICS_PORT: String(metricsPort), DEMO_STEPS: '1' },
    });
    const metricsUrl = `http://127.0.0.1:${metricsPort}`;
    expect(
      await (
        await startRun(
          service.baseUrl,
          user,
          runInput('metrics-port', 'run-1', [{ id: 'u1', content: 'go' }]),
        )
      ).terminal(),
    ).toMatchObject({
      type: 'RUN_FINISHED',
    });

    const metrics = await scrape(metricsUrl);
    expect(metrics.status).toBe(200);
    for (const name of CONTRACT_METRICS) expect(metrics.text).toContain(`# TYPE ${name} `);
    expect(metrics.value('agent_runs_total', { outcome: 'completed' })).toBe(1);
    const onApi = await scrape(service.baseUrl);
    expect(onApi.status).toBe(404);
    expect(JSON.parse(onApi.text)).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    expect((await fetch(`${metricsUrl}/v1/threads`)).status).toBe(404);

    service.kill('SIGTERM');
    expect((await service.waitForExit(15_000)).code).toBe(0);
  });
});
