import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import { startRun } from './support/sse';
import { waitFor } from 'dev-services';
import { scrape } from './support/metrics-scrape';

const user = tokenFor('alice');

describe('SIGTERM during a run', () => {
  const services = new ServiceGroup();
  afterEach(() => services.stopAll());

  it('interrupts the run, exits 0 before the deadline, and a new process resumes it from the client retry', async () => {
    const first = await services.start({
      env: {
        SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
        SHUTDOWN_TIMEOUT_MS: '10000',
        DEMO_REASONING_MS: '200',
        DEMO_TOOL_MS: '400',
      },
    });
    const input = runInput('thread-sigterm', 'run-1', [{ id: 'user-1', content: 'do the steps' }]);
    const stream = await startRun(first.baseUrl, user, input);
    expect(stream.status).toBe(200);
    await stream.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'the first tool result');

    const signalledAt = Date.now();
    first.kill('SIGTERM');
    const exit = await first.waitForExit(15_000);
    const terminal = await stream.terminal();

    expect(terminal).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalledAt).toBeLessThan(10_000);

    const second = await services.restart(first);
    const status = await api(second.baseUrl, '/v1/threads/thread-sigterm', { token: user });
    expect(status.body).toMatchObject({
      status: 'interrupted',
      interrupt: { reason: 'shutdown', runId: 'run-1' },
    });

    const retry = await startRun(second.baseUrl, user, input);
    expect(await retry.terminal()).toMatchObject({
      type: 'RUN_FINISHED',
      threadId: 'thread-sigterm',
      runId: 'run-1',
    });

    const { body } = await api(second.baseUrl, '/v1/threads/thread-sigterm/messages', {
      token: user,
    });
    const messages = body.messages as Array<{
      role: string;
      content: string;
      toolCalls?: unknown[];
    }>;
    expect(messages.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(messages.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(messages.filter((m) => m.role === 'system')[0].content).toMatch(
      /interrupted.*shut down.*do not repeat/s,
    );
    const results = messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual(['step 1 done', 'step 2 done', 'step 3 done']);
    const after = await api(second.baseUrl, '/v1/threads/thread-sigterm', { token: user });
    expect(after.body).toMatchObject({
      status: 'idle',
      interrupt: null,
      lastRun: { runId: 'run-1', status: 'completed' },
    });
  });

  it('continues a thread interrupted by a SIGTERM with a new message under a new runId: the resume message first, then the message', async () => {
    const first = await services.start({
      env: { SHUTDOWN_DRAIN_TIMEOUT_MS: '0', DEMO_REASONING_MS: '200', DEMO_TOOL_MS: '400' },
    });
    const stream = await startRun(
      first.baseUrl,
      user,
      runInput('thread-sigterm-new', 'run-1', [{ id: 'user-1', content: 'do the steps' }]),
    );
    await stream.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'the first tool result');
    first.kill('SIGTERM');
    expect(await stream.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
    expect((await first.waitForExit(15_000)).code).toBe(0);
    const second = await services.restart(first);

    const next = await startRun(
      second.baseUrl,
      user,
      runInput('thread-sigterm-new', 'run-2', [{ id: 'user-2', content: 'now something else' }]),
    );

    expect(await next.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });
    const { body } = await api(second.baseUrl, '/v1/threads/thread-sigterm-new/messages', {
      token: user,
    });
    const messages = body.messages as Array<{
      role: string;
      content: string;
      runId: string;
      toolCalls?: Array<{ id: string }>;
      toolCallId?: string;
    }>;
    const system = messages.findIndex((m) => m.role === 'system');
    expect(system).toBeGreaterThan(0);
    expect(messages[system + 1]).toMatchObject({
      role: 'user',
      content: 'now something else',
      runId: 'run-2',
    });
    expect(messages.slice(0, system).every((m) => m.runId === 'run-1')).toBe(true);
    const calls = messages.flatMap((m) => m.toolCalls ?? []).map((call) => call.id);
    expect(
      messages
        .filter((m) => m.role === 'tool')
        .map((m) => m.toolCallId)
        .sort(),
    ).toEqual(calls.sort());
    expect(
      (await api(second.baseUrl, '/v1/threads/thread-sigterm-new', { token: user })).body,
    ).toMatchObject({
      status: 'idle',
      interrupt: null,
      lastRun: { runId: 'run-2', status: 'completed' },
    });
  });

  it('resumes a run interrupted under one release of the agent on the next, telling the client, recording and counting it', async () => {
    const first = await services.start({
      env: {
        SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
        SHUTDOWN_TIMEOUT_MS: '10000',
        DEMO_REASONING_MS: '200',
        DEMO_TOOL_MS: '400',
        AGENT_VERSION: '1.0.0',
      },
    });
    const input = runInput('thread-release', 'run-1', [{ id: 'user-1', content: 'do the steps' }]);
    const stream = await startRun(first.baseUrl, user, input);
    await stream.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'the first tool result');
    first.kill('SIGTERM');
    await first.waitForExit(15_000);
    const next = await services.start({
      env: { ...first.env, AGENT_VERSION: '2.0.0' },
      dataDir: first.dataDir,
    });
    const interrupted = await api(next.baseUrl, '/v1/threads/thread-release', { token: user });
    const marker = interrupted.body.interrupt as { agentVersion: string; agentFingerprint: string };
    expect(marker).toMatchObject({
      reason: 'shutdown',
      agentVersion: '1.0.0',
      agentFingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(interrupted.body).toMatchObject({
      lastRun: {
        status: 'interrupted',
        agentVersion: '1.0.0',
        agentFingerprint: marker.agentFingerprint,
      },
    });

    const retry = await startRun(next.baseUrl, user, input);
    expect(await retry.terminal()).toMatchObject({ type: 'RUN_FINISHED' });

    const notice = retry.events.find(
      (e) => e.type === 'CUSTOM' && e.name === 'agent_version_changed',
    );
    expect(notice?.value).toEqual({
      from: { version: '1.0.0', fingerprint: marker.agentFingerprint },
      to: { version: '2.0.0', fingerprint: marker.agentFingerprint },
      decision: 'adapt',
      notRun: [],
    });
    const status = await api(next.baseUrl, '/v1/threads/thread-release', { token: user });
    expect(status.body).toMatchObject({
      lastRun: {
        status: 'completed',
        agentVersion: '2.0.0',
        agentFingerprint: marker.agentFingerprint,
      },
    });
    expect((await scrape(next.baseUrl)).value('agent_resumes_across_versions_total')).toBe(1);
  });

  it('fails readiness at once, keeps liveness, refuses new runs with 503 and Retry-After, and still serves reads', async () => {
    const service = await services.start({
      env: {
        SHUTDOWN_DRAIN_TIMEOUT_MS: '3000',
        SHUTDOWN_TIMEOUT_MS: '8000',
        DEMO_STEPS: '50',
        DEMO_TOOL_MS: '100',
      },
    });
    const running = await startRun(
      service.baseUrl,
      user,
      runInput('thread-drain', 'run-1', [{ id: 'u1', content: 'long' }]),
    );
    await running.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'a tool result');

    service.kill('SIGTERM');
    await waitFor(
      async () => (await fetch(`${service.baseUrl}/health/ready`)).status === 503,
      'readiness to fail',
      2_000,
    );
    expect((await fetch(`${service.baseUrl}/health/live`)).status).toBe(200);

    const refused = await api(service.baseUrl, '/v1/runs', {
      method: 'POST',
      token: user,
      body: runInput('thread-new', 'r', [{ id: 'x', content: 'hi' }]),
    });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ statusCode: 503, code: 'SHUTTING_DOWN' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api(service.baseUrl, '/v1/threads/thread-new', { token: user })).status).toBe(
      404,
    );

    expect(
      (await api(service.baseUrl, '/v1/threads/thread-drain', { token: user })).body,
    ).toMatchObject({ status: 'running' });
    expect(
      (await api(service.baseUrl, '/v1/threads/thread-drain/messages', { token: user })).status,
    ).toBe(200);

    expect(await running.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
    expect(await service.waitForExit(10_000)).toMatchObject({ code: 0 });
    const refusals = requestLines(service.logs).filter(
      (line) => line.req?.url === '/v1/runs' && line.res?.statusCode === 503,
    );
    expect(refusals).toEqual([expect.objectContaining({ level: 'warn' })]);
    expect(refusals[0].err).toBeUndefined();
  });

  it('serves a user cancel during the drain, and the canceled run is not marked interrupted', async () => {
    const service = await services.start({
      env: { SHUTDOWN_DRAIN_TIMEOUT_MS: '10000', SHUTDOWN_TIMEOUT_MS: '15000', DEMO_STEPS: '50' },
    });
    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('thread-cancel-drain', 'run-1', [{ id: 'u1', content: 'x' }]),
    );
    await stream.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'a tool result');

    service.kill('SIGTERM');
    await waitFor(
      async () => (await fetch(`${service.baseUrl}/health/ready`)).status === 503,
      'readiness to fail',
      2_000,
    );
    const cancel = await api(service.baseUrl, '/v1/runs/thread-cancel-drain/cancel?waitMs=5000', {
      method: 'POST',
      token: user,
    });

    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ accepted: true, stopped: true, stopReason: 'canceled' });
    expect(await stream.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
    expect(await service.waitForExit(10_000)).toMatchObject({ code: 0 });
    const after = await services.restart(service);
    expect(
      (await api(after.baseUrl, '/v1/threads/thread-cancel-drain', { token: user })).body,
    ).toMatchObject({
      status: 'idle',
      interrupt: null,
      lastRun: { status: 'canceled' },
    });
  });

  it('lets a run that finishes inside the drain budget complete with RUN_FINISHED', async () => {
    const service = await services.start({
      env: { SHUTDOWN_DRAIN_TIMEOUT_MS: '10000', SHUTDOWN_TIMEOUT_MS: '15000' },
    });
    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('thread-fits', 'run-1', [{ id: 'u1', content: 'short' }]),
    );
    await stream.waitForEvent((e) => e.type === 'STEP_STARTED', 'the first step');

    service.kill('SIGTERM');
    expect(await stream.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    expect(await service.waitForExit(15_000)).toMatchObject({ code: 0 });

    const after = await services.restart(service);
    expect(
      (await api(after.baseUrl, '/v1/threads/thread-fits', { token: user })).body,
    ).toMatchObject({
      status: 'idle',
      interrupt: null,
      lastRun: { status: 'completed' },
    });
  });

  it('stops a run that outlasts the drain budget at a safe point and saves its marker', async () => {
    const service = await services.start({
      env: { SHUTDOWN_DRAIN_TIMEOUT_MS: '500', SHUTDOWN_TIMEOUT_MS: '8000', DEMO_STEPS: '100' },
    });
    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('thread-long', 'run-1', [{ id: 'u1', content: 'long' }]),
    );
    await stream.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'a tool result');

    service.kill('SIGTERM');
    expect(await stream.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
    expect(stream.events.filter((e) => e.type === 'TOOL_CALL_RESULT').length).toBeGreaterThan(1);
    expect(await service.waitForExit(10_000)).toMatchObject({ code: 0 });

    const after = await services.restart(service);
    const { body } = await api(after.baseUrl, '/v1/threads/thread-long', { token: user });
    expect(body.status).toBe('interrupted');
    expect(body.interrupt).toMatchObject({ reason: 'shutdown', runId: 'run-1' });
    expect(['reasoning', 'acting']).toContain(body.interrupt.phase);
  });

  it('ignores a second signal instead of starting a second shutdown', async () => {
    const service = await services.start({
      env: { SHUTDOWN_DRAIN_TIMEOUT_MS: '1500', SHUTDOWN_TIMEOUT_MS: '6000', DEMO_STEPS: '50' },
    });
    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('thread-twice', 'run-1', [{ id: 'u1', content: 'x' }]),
    );
    await stream.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'a tool result');

    service.kill('SIGTERM');
    await waitFor(() => service.logs.includes('shutdown started'), 'the shutdown to start');
    service.kill('SIGINT');
    expect(await stream.terminal()).toMatchObject({ code: 'RUN_INTERRUPTED' });
    expect(await service.waitForExit(10_000)).toMatchObject({ code: 0, signal: null });
    expect(service.logs.match(/shutdown started/g)).toHaveLength(1);
    expect(service.logs).toContain('shutdown already in progress, signal ignored');
  });
});

/** The request lines of a service's JSON log. */
function requestLines(
  logs: string,
): Array<{ level?: string; err?: unknown; req?: { url?: string }; res?: { statusCode?: number } }> {
  return logs
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map(
      (line) =>
        JSON.parse(line) as {
          level?: string;
          err?: unknown;
          req?: { url?: string };
          res?: { statusCode?: number };
        },
    )
    .filter((line) => line.req !== undefined && line.res !== undefined);
}
