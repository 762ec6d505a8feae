import { onPostgresSignals, SharedBackends } from './support/backends';
import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { MINUTE_MS, skewedClock } from './support/skewed-clock';
import { scrape } from './support/metrics-scrape';
import { startRun } from './support/sse';
import { waitFor } from 'dev-services';

const user = tokenFor('erin');
// This suite stops and restarts its servers, so it has its own.
const backends = new SharedBackends();
const services = new ServiceGroup();

beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop());
afterEach(() => services.stopAll());

const signalsHealth = async (service: ServiceProcess) => {
  const ready = await api(service.baseUrl, '/health/ready');
  return { status: ready.status, signals: ready.body?.details?.signals };
};

const connected = (service: ServiceProcess, expected: boolean) =>
  waitFor(
    async () => (await signalsHealth(service)).signals?.connected === expected,
    `the signal bus to report connected=${expected}`,
    30_000,
  );

/** Waits until the service's `agent_signal_bus_connected` gauge reads `expected`. */
const busGauge = (service: ServiceProcess, expected: 0 | 1) =>
  waitFor(
    async () => (await scrape(service.baseUrl)).value('agent_signal_bus_connected') === expected,
    `agent_signal_bus_connected to read ${expected}`,
    30_000,
  );

const messagesOf = async (service: ServiceProcess, threadId: string) => {
  const { body } = await api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token: user });
  return body.messages as Array<{ role: string; content: string }>;
};

// Redis carries the signals by default; on PostgreSQL alone (`E2E_SIGNALS=postgres`) there is no Redis to lose.
if (!onPostgresSignals()) {
  describe('a Redis outage', () => {
    it('lets runs complete, falls back to local cancels, and carries cross-instance cancels again once Redis is back', async () => {
      const env = await backends.environment({ DEMO_TOOL_MS: '300' });
      const a = await services.start({ env });
      // B's wall clock runs a minute ahead: nothing may depend on it.
      const b = await services.start({ env: { ...env, ...skewedClock(MINUTE_MS) } });

      await backends.redis.stop();
      await connected(a, false);
      expect(await signalsHealth(a)).toMatchObject({
        status: 200,
        signals: { status: 'up', transport: 'redis', connected: false, fallback: 'local' },
      });
      expect((await api(a.baseUrl, '/health/live')).status).toBe(200);

      const during = await startRun(
        a.baseUrl,
        user,
        runInput('thread-redis-down', 'run-1', [{ id: 'u1', content: 'go' }]),
      );
      expect(await during.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
      const local = await startRun(
        a.baseUrl,
        user,
        runInput('thread-redis-local', 'run-1', [{ id: 'u1', content: 'go' }]),
      );
      await local.waitForEvent((e) => e.type === 'STEP_STARTED', 'the run to start');
      const localCancel = await api(a.baseUrl, '/v1/runs/thread-redis-local/cancel?waitMs=10000', {
        method: 'POST',
        token: user,
      });
      expect(localCancel.body).toMatchObject({ stopped: true, stopReason: 'canceled' });
      expect(a.logs).toContain('redis unavailable');

      await backends.redis.startAgain();
      await Promise.all([connected(a, true), connected(b, true)]);

      const after = await startRun(
        a.baseUrl,
        user,
        runInput('thread-redis-back', 'run-1', [{ id: 'u1', content: 'go' }]),
      );
      await after.waitForEvent((e) => e.type === 'STEP_STARTED', 'the run to start');
      const remote = await api(b.baseUrl, '/v1/runs/thread-redis-back/cancel?waitMs=10000', {
        method: 'POST',
        token: user,
      });
      expect(remote.body).toMatchObject({ stopped: true, stopReason: 'canceled' });
      expect(await after.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
    }, 120_000);
  });
}

if (onPostgresSignals()) {
  describe('signals through PostgreSQL alone, across a PostgreSQL restart', () => {
    it('cancels across instances, falls back while PostgreSQL is away, and cancels across instances again once the bus reconnected', async () => {
      const env = await backends.environment({ DEMO_TOOL_MS: '2000' });
      const a = await services.start({ env });
      // B's wall clock runs a minute ahead: nothing may depend on it.
      const b = await services.start({ env: { ...env, ...skewedClock(MINUTE_MS) } });
      expect(await signalsHealth(a)).toMatchObject({
        status: 200,
        signals: { status: 'up', transport: 'postgres', connected: true },
      });

      const before = await startRun(
        a.baseUrl,
        user,
        runInput('thread-pg-before', 'run-1', [{ id: 'u1', content: 'go' }]),
      );
      await before.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the first tool call');
      const first = await api(b.baseUrl, '/v1/runs/thread-pg-before/cancel?waitMs=10000', {
        method: 'POST',
        token: user,
      });
      expect(first.body).toMatchObject({ stopped: true, stopReason: 'canceled' });

      await backends.postgres.stop('immediate');
      try {
        // Readiness answers 503 without details while the store is down: the gauge still tells.
        await Promise.all([busGauge(a, 0), busGauge(b, 0)]);
        expect(a.logs).toContain('postgres signal connection lost');
      } finally {
        await backends.postgres.startAgain();
      }
      await Promise.all([connected(a, true), connected(b, true), busGauge(a, 1)]);

      const after = await startRun(
        a.baseUrl,
        user,
        runInput('thread-pg-after', 'run-1', [{ id: 'u1', content: 'go' }]),
      );
      await after.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the first tool call');
      const remote = await api(b.baseUrl, '/v1/runs/thread-pg-after/cancel?waitMs=10000', {
        method: 'POST',
        token: user,
      });
      expect(remote.body).toMatchObject({ stopped: true, stopReason: 'canceled' });
      expect(await after.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
      expect(a.logs).toContain('postgres signal connection restored');
    }, 120_000);
  });
}

describe('a PostgreSQL restart', () => {
  it('loses nothing of runs in flight: each completes or ends with a clear error, and every thread completes on retry', async () => {
    const env = await backends.environment({
      DEMO_STEPS: '3',
      DEMO_TOOL_MS: '400',
      DEMO_REASONING_MS: '200',
    });
    const a = await services.start({ env });
    const threads = ['pg-1', 'pg-2', 'pg-3', 'pg-4'];
    const inputs = threads.map((threadId) =>
      runInput(threadId, 'run-1', [{ id: `${threadId}-u`, content: 'three steps' }]),
    );
    const streams = await Promise.all(inputs.map((input) => startRun(a.baseUrl, user, input)));
    await Promise.all(
      streams.map((s) =>
        s.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'a first checkpointed step'),
      ),
    );

    await backends.postgres.restart('fast');

    const endings = await Promise.all(streams.map((s) => s.terminal()));
    for (const ending of endings) {
      expect(
        ending?.type === 'RUN_FINISHED' ||
          (ending?.type === 'RUN_ERROR' && typeof ending.code === 'string' && ending.message),
      ).toBeTruthy();
    }
    for (const [i, threadId] of threads.entries()) {
      await waitFor(async () => {
        const { body } = await api(a.baseUrl, `/v1/threads/${threadId}`, { token: user });
        return body.status !== 'running';
      }, `thread ${threadId} to leave running`);
      if (endings[i]?.type !== 'RUN_FINISHED')
        expect(await (await startRun(a.baseUrl, user, inputs[i])).terminal()).toMatchObject({
          type: 'RUN_FINISHED',
        });
      const messages = await messagesOf(a, threadId);
      expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
        'step 1 done',
        'step 2 done',
        'step 3 done',
      ]);
      expect(messages.filter((m) => m.role === 'user')).toHaveLength(1);
    }
  }, 120_000);
});

describe('PostgreSQL down', () => {
  it('answers requests that need the store 503 STORE_UNAVAILABLE with Retry-After, and serves them again once it is back', async () => {
    const env = await backends.environment();
    const a = await services.start({ env });
    const run = await startRun(
      a.baseUrl,
      user,
      runInput('pg-down', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    expect(await run.terminal()).toMatchObject({ type: 'RUN_FINISHED' });

    await backends.postgres.stop('fast');
    try {
      const during = await api(a.baseUrl, '/v1/threads/pg-down', { token: user });
      expect(during.status).toBe(503);
      expect(during.body).toMatchObject({ code: 'STORE_UNAVAILABLE' });
      expect(during.headers.get('retry-after')).toBe('2');
      expect((await api(a.baseUrl, '/health/live')).status).toBe(200);
    } finally {
      await backends.postgres.startAgain();
    }

    await waitFor(
      async () => (await api(a.baseUrl, '/v1/threads/pg-down', { token: user })).status === 200,
      'thread reads to work again',
    );
  }, 120_000);
});
