import { ResumableHttpAgent } from 'nest-agent-graceful-shutdown/client';
import { onPostgresSignals, SharedBackends } from './support/backends';
import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { MINUTE_MS, skewedClock } from './support/skewed-clock';
import { FINISHED_RUN, joinRun, runShape, startRun } from './support/sse';
import { toolLedger } from './support/tool-ledger';
import { waitFor } from 'dev-services';

/** Issued two minutes ago, so that the instance whose clock runs a minute behind does not see it issued in its future. */
const user = tokenFor('hana', undefined, { issuedSecondsAgo: 120 });
const backends = new SharedBackends();
const services = new ServiceGroup();

beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop());
afterEach(() => services.stopAll());

/**
 * Instances in resume mode `auto` on one PostgreSQL database and one Redis; the second one's
 * wall clock runs a minute ahead and the third one's a minute behind, which may change nothing.
 */
async function autoInstances(
  count: number,
  extra: Record<string, string> = {},
): Promise<ServiceProcess[]> {
  const env = await backends.environment({
    RESUME_MODE: 'auto',
    SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
    SHUTDOWN_TIMEOUT_MS: '10000',
    DEMO_STEPS: '3',
    DEMO_REASONING_MS: '300',
    DEMO_TOOL_MS: '400',
    ...extra,
  });
  const started: ServiceProcess[] = [];
  const skews = [{}, skewedClock(MINUTE_MS), skewedClock(-MINUTE_MS)];
  for (let i = 0; i < count; i++)
    started.push(await services.start({ env: { ...env, ...skews[i % skews.length] } }));
  return started;
}

async function thread(service: ServiceProcess, threadId: string) {
  return (await api(service.baseUrl, `/v1/threads/${threadId}`, { token: user })).body;
}

async function messages(
  service: ServiceProcess,
  threadId: string,
): Promise<Array<{ role: string; content: string }>> {
  return (await api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token: user })).body
    .messages;
}

/**
 * An identical re-send of the ended run `run-1` of `threadId` and a join without `Last-Event-ID`
 * both read it as one run: ids from 1, one RUN_STARTED, one terminal event, RUN_FINISHED.
 */
async function expectOneRunRead(
  service: ServiceProcess,
  threadId: string,
  messages: Array<{ id: string; content: string }>,
): Promise<void> {
  const [resent, joined] = await Promise.all([
    startRun(service.baseUrl, user, runInput(threadId, 'run-1', messages)),
    joinRun(service.baseUrl, user, threadId),
  ]);
  await Promise.all([resent.done, joined.done]);
  expect(runShape(resent.frames)).toEqual(FINISHED_RUN);
  expect(resent.frames[0].id).toBe(1);
  expect(joined.frames).toEqual(resent.frames);
}

/** Ids 1..n, each once and in order. */
const consecutive = (items: readonly unknown[]) => items.map((_, index) => index + 1);

describe('resume mode auto on two instances', () => {
  it('hands a run over at SIGTERM: its client gets a handover notice, joins B after it, and sees the rest once; A exits 0', async () => {
    const [a, b] = await autoInstances(2);
    const post = await startRun(
      a.baseUrl,
      user,
      runInput('handover-1', 'run-1', [{ id: 'h1-u1', content: 'do the steps' }]),
    );
    await post.waitForEvent((event) => event.type === 'TOOL_CALL_RESULT', 'a first tool result');

    a.kill('SIGTERM');
    await post.done;
    const notice = post.frames.at(-1)!;
    expect(notice).toEqual({
      id: undefined,
      event: {
        type: 'CUSTOM',
        name: 'handover',
        value: { threadId: 'handover-1', runId: 'run-1', lastEventId: expect.any(Number) },
      },
    });
    expect(
      post.events.some((event) => event.type === 'RUN_ERROR' || event.type === 'RUN_FINISHED'),
    ).toBe(false);
    const lastEventId = notice.event.value.lastEventId as number;
    expect(lastEventId).toBe(post.frames.at(-2)!.id);
    const joined = await joinRun(b.baseUrl, user, 'handover-1', { lastEventId });

    expect(await joined.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    expect((await a.waitForExit()).code).toBe(0);
    const seen = [...post.frames.slice(0, -1), ...joined.frames];
    expect(seen.map((frame) => frame.id)).toEqual(consecutive(seen));
    expect(seen.filter((frame) => frame.event.type === 'RUN_STARTED')).toHaveLength(1);
    const stored = await messages(b, 'handover-1');
    expect(stored.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'step 1 done',
      'step 2 done',
      'step 3 done',
    ]);
    const finished = toolLedger([a, b], 'demo tool finished', 'handover-1');
    expect(new Set(finished).size).toBe(finished.length);
    expect(await thread(b, 'handover-1')).toMatchObject({
      status: 'idle',
      lastRun: { runId: 'run-1', status: 'completed' },
    });
    await expectOneRunRead(b, 'handover-1', [{ id: 'h1-u1', content: 'do the steps' }]);
  });

  it("resolves the resumable client's one runAgent call with the whole run across a handover, without resending", async () => {
    const [a, b] = await autoInstances(2);
    const agent = new ResumableHttpAgent({
      url: `${a.baseUrl}/v1/runs`,
      joinUrl: (threadId, runId) => `${b.baseUrl}/v1/runs/${threadId}/stream?runId=${runId}`,
      headers: { Authorization: `Bearer ${user}` },
      threadId: 'handover-client',
      initialMessages: [{ id: 'hc-u1', role: 'user', content: 'do the steps' }],
    });
    let toolResults = 0;
    const result = agent.runAgent(
      { runId: 'run-1' },
      {
        onToolCallResultEvent: () => {
          if (++toolResults === 1) a.kill('SIGTERM');
        },
      },
    );

    const { newMessages } = await result;

    expect(newMessages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'step 1 done',
      'step 2 done',
      'step 3 done',
    ]);
    expect(
      newMessages.filter((m) => m.role === 'assistant' && m.content).map((m) => m.content),
    ).toEqual(['All 3 steps are done for: do the steps']);
    expect(agent.stats).toMatchObject({ handovers: 1, resends: 0 });
    expect((await a.waitForExit()).code).toBe(0);
  });

  it('continues on B, with no client action, the run of a SIGKILLed A once its lease expired, and the history is complete', async () => {
    const [a, b] = await autoInstances(2);
    const post = await startRun(
      a.baseUrl,
      user,
      runInput('handover-crash', 'run-1', [{ id: 'hk-u1', content: 'do the steps' }]),
    );
    await post.waitForEvent((event) => event.type === 'TOOL_CALL_RESULT', 'a first tool result');

    a.kill('SIGKILL');
    await post.done;

    const done = await waitFor(
      async () => {
        const body = await thread(b, 'handover-crash');
        return body.status === 'idle' && body.lastRun?.status === 'completed' ? body : undefined;
      },
      'B to finish the run on its own',
      30_000,
    );
    expect(done.lastRun.runId).toBe('run-1');
    const stored = await messages(b, 'handover-crash');
    expect(stored.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'step 1 done',
      'step 2 done',
      'step 3 done',
    ]);
    expect(
      stored.filter((m) => m.role === 'system' && /interrupted/i.test(m.content)),
    ).toHaveLength(1);
    expect(stored.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'All 3 steps are done for: do the steps',
    });
    const whole = await joinRun(b.baseUrl, user, 'handover-crash', { lastEventId: 0 });
    await whole.done;
    expect(whole.frames.map((frame) => frame.id)).toEqual(consecutive(whole.frames));
    expect(whole.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    await expectOneRunRead(b, 'handover-crash', [{ id: 'hk-u1', content: 'do the steps' }]);
  });

  it('lets exactly one of two instances continue a thread both try to resume', async () => {
    const [a, b, c] = await autoInstances(3);
    const post = await startRun(
      a.baseUrl,
      user,
      runInput('handover-race', 'run-1', [{ id: 'hr-u1', content: 'do the steps' }]),
    );
    await post.waitForEvent((event) => event.type === 'TOOL_CALL_RESULT', 'a first tool result');

    a.kill('SIGTERM');
    await waitFor(
      async () => (await thread(b, 'handover-race')).status === 'idle',
      'the continued run to finish',
      30_000,
    );

    const continued = [b, c].map(
      (service) => (service.logs.match(/continuing interrupted run/g) ?? []).length,
    );
    expect(continued.sort()).toEqual([0, 1]);
    const finished = toolLedger([a, b, c], 'demo tool finished', 'handover-race');
    expect(finished).toHaveLength(3);
    expect(new Set(finished).size).toBe(3);
  });

  it('leaves a run interrupted when no instance is alive, and the next instance to start continues it', async () => {
    const [a] = await autoInstances(1);
    const post = await startRun(
      a.baseUrl,
      user,
      runInput('handover-boot', 'run-1', [{ id: 'hb-u1', content: 'do the steps' }]),
    );
    await post.waitForEvent((event) => event.type === 'TOOL_CALL_RESULT', 'a first tool result');
    a.kill('SIGTERM');
    expect((await a.waitForExit()).code).toBe(0);

    const b = await services.restart(a);

    await waitFor(
      async () => (await thread(b, 'handover-boot')).lastRun?.status === 'completed',
      'the boot sweep to finish the run',
      30_000,
    );
    expect((await messages(b, 'handover-boot')).filter((m) => m.role === 'tool')).toHaveLength(3);
  });
});

describe('joining on another instance', () => {
  it('replays on B, after a cut at event k on A, the events k+1 to the terminal event exactly once, live and after the run ended', async () => {
    const [a, b] = await autoInstances(2, {
      DEMO_STEPS: '4',
      DEMO_REASONING_MS: '150',
      DEMO_TOOL_MS: '150',
    });
    const post = await startRun(
      a.baseUrl,
      user,
      runInput('join-elsewhere', 'run-1', [{ id: 'je-u1', content: 'do the steps' }]),
    );
    await waitFor(() => post.frames.length >= 6, 'six events on A');
    post.cut();
    const k = post.frames[5].id!;

    const live = await joinRun(b.baseUrl, user, 'join-elsewhere', { lastEventId: k });

    expect((await live.terminal())?.type).toBe('RUN_FINISHED');
    expect(live.frames.map((frame) => frame.id)).toEqual(
      live.frames.map((_, index) => k + 1 + index),
    );
    const after = await joinRun(b.baseUrl, user, 'join-elsewhere', {
      runId: 'run-1',
      lastEventId: 0,
    });
    await after.done;
    expect(after.frames.slice(k)).toEqual(live.frames);
    expect(after.frames.slice(0, k)).toEqual(post.frames.slice(0, k));
  });
});

// On PostgreSQL alone (`E2E_SIGNALS=postgres`) the bus makes `auto` the default.
if (onPostgresSignals()) {
  describe('PostgreSQL alone with RESUME_MODE unset', () => {
    it('hands a run over at SIGTERM by default, and its client follows it to the end on B', async () => {
      // Blank is unset: the service decides, from a PostgreSQL store and the PostgreSQL bus.
      const [a, b] = await autoInstances(2, { RESUME_MODE: '' });
      const post = await startRun(
        a.baseUrl,
        user,
        runInput('handover-default', 'run-1', [{ id: 'hd-u1', content: 'do the steps' }]),
      );
      await post.waitForEvent((event) => event.type === 'TOOL_CALL_RESULT', 'a first tool result');

      a.kill('SIGTERM');
      await post.done;
      const notice = post.frames.at(-1)!;
      expect(notice.event).toMatchObject({ type: 'CUSTOM', name: 'handover' });
      const joined = await joinRun(b.baseUrl, user, 'handover-default', {
        lastEventId: notice.event.value.lastEventId as number,
      });

      expect(await joined.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
      expect((await a.waitForExit()).code).toBe(0);
    });
  });
}

// The Redis log's own fault; on PostgreSQL alone (`E2E_SIGNALS=postgres`) the log is in the database.
if (!onPostgresSignals()) {
  describe('a Redis restart in the middle of a run', () => {
    it('keeps the run going, and its writer appends again what the restart lost: a join from the first event gets the whole run, in order', async () => {
      const [a] = await autoInstances(1, { DEMO_STEPS: '4' });
      const post = await startRun(
        a.baseUrl,
        user,
        runInput('redis-restart', 'run-1', [{ id: 'rr-u1', content: 'do the steps' }]),
      );
      await post.waitForEvent((event) => event.type === 'TOOL_CALL_RESULT', 'a first tool result');

      await backends.redis.stop();
      await backends.redis.startAgain();

      expect(await post.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
      expect(post.frames.map((frame) => frame.id)).toEqual(consecutive(post.frames));
      // Redis runs without persistence here: the events from before the restart are stored again by the run's writer.
      const fromStart = await waitFor(async () => {
        const joined = await joinRun(a.baseUrl, user, 'redis-restart', {
          runId: 'run-1',
          lastEventId: 0,
        });
        await joined.done;
        return joined.status === 200 && joined.frames.length === post.frames.length
          ? joined
          : undefined;
      }, 'the log to hold the whole run again');
      expect(fromStart.frames.map((frame) => frame.id)).toEqual(
        post.frames.map((frame) => frame.id),
      );
      expect(fromStart.frames.at(-1)?.event.type).toBe('RUN_FINISHED');
      expect(a.logs).toContain('run event log lost events, appending them again');
      const lastId = post.frames.at(-1)!.id!;
      const tail = await joinRun(a.baseUrl, user, 'redis-restart', { lastEventId: lastId - 3 });
      await tail.done;
      expect(tail.frames.map((frame) => frame.id)).toEqual([lastId - 2, lastId - 1, lastId]);
      expect(tail.frames.at(-1)?.event.type).toBe('RUN_FINISHED');
    });
  });
}
