import { onPostgresSignals, SharedBackends } from './support/backends';
import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { MINUTE_MS, skewedClock } from './support/skewed-clock';
import { FINISHED_RUN, joinRun, postRun, runShape, startRun, type AgUiEvent } from './support/sse';
import { toolLedger } from './support/tool-ledger';
import { waitFor } from 'dev-services';

const user = tokenFor('dana');
/** `LEASE_TTL_MS` of the shared backends' environment (see `support/backends.ts`). */
const LEASE_TTL_MS = 1_500;
const backends = new SharedBackends();
const services = new ServiceGroup();

beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop());
afterEach(() => services.stopAll());

/**
 * Two instances of the service on one PostgreSQL database and one Redis; B's wall clock runs a
 * minute ahead of A's, and nothing may depend on it (leases are decided on the database's clock).
 */
async function twoInstances(
  extra: Record<string, string> = {},
): Promise<[ServiceProcess, ServiceProcess]> {
  const env = await backends.environment(extra);
  const a = await services.start({ env });
  return [a, await services.start({ env: { ...env, ...skewedClock(MINUTE_MS) } })];
}

const toolResults = async (service: ServiceProcess, threadId: string) => {
  const { body } = await api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token: user });
  return body.messages as Array<{ role: string; content: string; runId: string }>;
};

/** How many attempts the instances started for `threadId` (their `run started` log lines). */
const runAttempts = (instances: readonly ServiceProcess[], threadId: string) =>
  instances
    .flatMap((service) => service.logs.split('\n'))
    .filter((line) => line.includes('"run started"') && line.includes(`"threadId":"${threadId}"`))
    .length;

/** How many attempts the instances started for one run. */
const attemptsOf = (instances: readonly ServiceProcess[], threadId: string, runId: string) =>
  instances
    .flatMap((service) => service.logs.split('\n'))
    .filter(
      (line) =>
        line.includes('"run started"') &&
        line.includes(`"threadId":"${threadId}"`) &&
        line.includes(`"runId":"${runId}"`),
    ).length;

const isQueuedNotice = (event: AgUiEvent) => event.type === 'CUSTOM' && event.name === 'run_queued';

/**
 * Two instances, a run of `threadId` acting on A, and a run queued behind it on B
 * (`multitask=enqueue`), its stream showing the queued notice.
 */
async function queuedOnB(threadId: string, content: string) {
  const [a, b] = await twoInstances({ DEMO_TOOL_MS: '1000' });
  const first = await startRun(
    a.baseUrl,
    user,
    runInput(threadId, 'run-1', [{ id: 'u1', content: 'go' }]),
  );
  await first.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the first tool call');
  const input = runInput(threadId, 'run-2', [{ id: 'u2', content }]);
  const second = await postRun(
    `${b.baseUrl}/v1/runs?multitask=enqueue`,
    { authorization: `Bearer ${user}` },
    input,
  );
  await second.waitForEvent(isQueuedNotice, 'the queued notice');
  return { a, b, first, second };
}

const isToolResult = (content: string) => (event: AgUiEvent) =>
  event.type === 'TOOL_CALL_RESULT' && event.content === content;

describe(
  onPostgresSignals()
    ? 'two instances on PostgreSQL alone'
    : 'two instances on one PostgreSQL and one Redis',
  () => {
    it('stops a run on instance A when the cancel is sent to instance B, and B reports it stopped', async () => {
      const [a, b] = await twoInstances({ DEMO_TOOL_MS: '2000' });
      const stream = await startRun(
        a.baseUrl,
        user,
        runInput('thread-x-cancel', 'run-1', [{ id: 'u1', content: 'go' }]),
      );
      await stream.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the first tool call');

      const cancel = await api(b.baseUrl, '/v1/runs/thread-x-cancel/cancel?waitMs=10000', {
        method: 'POST',
        token: user,
      });

      expect(cancel.status).toBe(200);
      expect(cancel.body).toMatchObject({
        threadId: 'thread-x-cancel',
        runId: 'run-1',
        accepted: true,
        stopped: true,
        stopReason: 'canceled',
      });
      expect(await stream.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
    });

    it('refuses a second run request for a running thread on the other instance with 409', async () => {
      const [a, b] = await twoInstances({ DEMO_TOOL_MS: '1000' });
      const input = runInput('thread-x-busy', 'run-1', [{ id: 'u1', content: 'go' }]);
      const running = await startRun(a.baseUrl, user, input);
      await running.waitForEvent((e) => e.type === 'STEP_STARTED', 'the first step');

      const second = await startRun(
        b.baseUrl,
        user,
        runInput('thread-x-busy', 'run-2', [{ id: 'u2', content: 'again' }]),
      );

      expect(second.status).toBe(409);
      expect(second.error).toMatchObject({ code: 'RUN_IN_PROGRESS' });
      expect(await running.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
      expect((await toolResults(b, 'thread-x-busy')).filter((m) => m.role === 'user')).toHaveLength(
        1,
      );
    });

    it('stops the run on A for a new run sent to B with multitask=interrupt: A ends RUN_REPLACED naming it, the new run follows on the whole history, each tool once', async () => {
      const [a, b] = await twoInstances({ DEMO_TOOL_MS: '1000' });
      const first = await startRun(
        a.baseUrl,
        user,
        runInput('thread-x-interrupt', 'run-1', [{ id: 'u1', content: 'go' }]),
      );
      await first.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'a first tool result');

      const correction = runInput('thread-x-interrupt', 'run-2', [
        { id: 'u1', content: 'go' },
        { id: 'u2', content: 'no, the other account' },
      ]);
      const second = await postRun(
        `${b.baseUrl}/v1/runs?multitask=interrupt`,
        { authorization: `Bearer ${user}` },
        correction,
      );

      expect(await first.terminal()).toMatchObject({
        type: 'RUN_ERROR',
        code: 'RUN_REPLACED',
        replacedBy: { runId: 'run-2', multitask: 'interrupt' },
      });
      expect(await second.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });
      const messages = await toolResults(b, 'thread-x-interrupt');
      const at = messages.findIndex((m) => m.content === 'no, the other account');
      expect(messages.slice(0, at).every((m) => m.runId === 'run-1')).toBe(true);
      expect(messages.slice(at).every((m) => m.runId === 'run-2')).toBe(true);
      expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
        'go',
        'no, the other account',
      ]);
      const started = toolLedger([a, b], 'demo tool started', 'thread-x-interrupt');
      expect(new Set(started).size).toBe(started.length);
    });

    it('rolls back on B the run active on A for a new run with multitask=rollback: only the new run stays, the done calls listed first', async () => {
      const [a, b] = await twoInstances({ DEMO_TOOL_MS: '1000' });
      const first = await startRun(
        a.baseUrl,
        user,
        runInput('thread-x-rollback', 'run-1', [{ id: 'u1', content: 'go' }]),
      );
      await first.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'a first tool result');

      const input = runInput('thread-x-rollback', 'run-2', [{ id: 'u2', content: 'start over' }]);
      const second = await postRun(
        `${b.baseUrl}/v1/runs?multitask=rollback`,
        { authorization: `Bearer ${user}` },
        input,
      );

      expect(await first.terminal()).toMatchObject({
        type: 'RUN_ERROR',
        code: 'RUN_REPLACED',
        replacedBy: { runId: 'run-2', multitask: 'rollback' },
      });
      expect(await second.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });
      expect(second.events[1]).toMatchObject({
        type: 'CUSTOM',
        name: 'run_rolled_back',
        value: { runId: 'run-1' },
      });
      expect((second.events[1] as AgUiEvent).value.effects.length).toBeGreaterThan(0);
      const messages = await toolResults(a, 'thread-x-rollback');
      expect(messages.every((m) => m.runId === 'run-2')).toBe(true);
      expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
        'start over',
      ]);
    });

    it('lets one of two new runs sent at once with multitask=interrupt, to A and to B, follow the active run; the other is refused with 409', async () => {
      const [a, b] = await twoInstances({ DEMO_TOOL_MS: '1000' });
      const first = await startRun(
        a.baseUrl,
        user,
        runInput('thread-x-race', 'run-1', [{ id: 'u1', content: 'go' }]),
      );
      await first.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the first tool call');

      const contenders = await Promise.all(
        [
          [a, 'run-2'],
          [b, 'run-3'],
        ].map(([service, runId]) =>
          postRun(
            `${(service as ServiceProcess).baseUrl}/v1/runs?multitask=interrupt`,
            { authorization: `Bearer ${user}` },
            runInput('thread-x-race', runId as string, [{ id: `${runId}-u`, content: 'instead' }]),
          ),
        ),
      );

      expect(await first.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_REPLACED' });
      expect(contenders.map((stream) => stream.status).sort()).toEqual([200, 409]);
      const winner = contenders.find((stream) => stream.status === 200)!;
      expect(await winner.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
      expect(contenders.find((stream) => stream.status === 409)!.error).toMatchObject({
        code: 'RUN_IN_PROGRESS',
      });
      expect((await toolResults(b, 'thread-x-race')).filter((m) => m.role === 'user')).toHaveLength(
        2,
      );
    });

    it("queues on B a new run while A runs the thread (multitask=enqueue): B's stream waits, then carries the run after A's, once", async () => {
      const { a, b, first, second } = await queuedOnB('thread-x-queue', 'then the other account');

      expect(second.events[1]).toMatchObject({ value: { position: 1, activeRunId: 'run-1' } });
      expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
      expect(await second.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });
      expect(runShape(second.frames)).toMatchObject(FINISHED_RUN);
      const messages = await toolResults(a, 'thread-x-queue');
      expect(messages.filter((m) => m.role === 'user').map((m) => m.runId)).toEqual([
        'run-1',
        'run-2',
      ]);
      expect(attemptsOf([a, b], 'thread-x-queue', 'run-2')).toBe(1);
      const started = toolLedger([a, b], 'demo tool started', 'thread-x-queue');
      expect(new Set(started).size).toBe(started.length);
    });

    it('starts a queued run exactly once after the instance that queued it was killed (SIGKILL), with no client asking', async () => {
      const { a, b, first } = await queuedOnB('thread-x-queue-kill', 'queued on B');

      b.kill('SIGKILL');
      await b.waitForExit();

      expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
      // Nobody re-joins: A takes the queue the killed instance left.
      const thread = await waitFor(
        async () => {
          const { body } = await api(a.baseUrl, '/v1/threads/thread-x-queue-kill', { token: user });
          // The thread's row and its last run's are two reads: wait for both to say it ended.
          return (
            body.lastRun?.runId === 'run-2' &&
            body.lastRun.status === 'completed' &&
            body.status === 'idle' &&
            body
          );
        },
        'the queued run started and completed on A',
        60_000,
      );
      expect(thread).toMatchObject({ status: 'idle', queuedRuns: 0 });
      const joined = await joinRun(a.baseUrl, user, 'thread-x-queue-kill', {
        runId: 'run-2',
        lastEventId: 2,
      });
      expect(await joined.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });
      expect(attemptsOf([a, b], 'thread-x-queue-kill', 'run-2')).toBe(1);
      const messages = await toolResults(a, 'thread-x-queue-kill');
      expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
        'go',
        'queued on B',
      ]);
      const started = toolLedger([a, b], 'demo tool started', 'thread-x-queue-kill');
      expect(new Set(started).size).toBe(started.length);
    });

    it('hands a queued stream over when the instance that queued the run is stopped (SIGTERM): the run starts once, and the client re-joins it anywhere', async () => {
      const { a, b, first, second } = await queuedOnB('thread-x-queue-term', 'queued on B');

      b.kill('SIGTERM');
      await second.done;

      expect((await b.waitForExit()).code).toBe(0);
      const handover = second.events.at(-1)!;
      expect(handover).toMatchObject({
        type: 'CUSTOM',
        name: 'handover',
        value: { threadId: 'thread-x-queue-term', runId: 'run-2', lastEventId: 2 },
      });
      const joined = await joinRun(a.baseUrl, user, 'thread-x-queue-term', {
        runId: 'run-2',
        lastEventId: handover.value.lastEventId,
      });
      expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
      expect(await joined.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });
      expect(runShape([...second.frames.slice(0, 2), ...joined.frames])).toMatchObject(
        FINISHED_RUN,
      );
      expect(attemptsOf([a, b], 'thread-x-queue-term', 'run-2')).toBe(1);
    });

    it('joins on B the run active on A when its identical request is retried there, and replays it on B once it ended, with one attempt', async () => {
      const [a, b] = await twoInstances({ DEMO_STEPS: '2', DEMO_TOOL_MS: '600' });
      const input = runInput('thread-x-retry', 'run-1', [{ id: 'u1', content: 'go' }]);
      const first = await startRun(a.baseUrl, user, input);
      await first.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the first tool call');

      const joined = await startRun(b.baseUrl, user, input);
      await Promise.all([first.done, joined.done]);
      const replayed = await startRun(b.baseUrl, user, input);
      await replayed.done;

      expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
      expect(joined.frames).toEqual(first.frames);
      expect(replayed.frames).toEqual(first.frames);
      expect(runAttempts([a, b], 'thread-x-retry')).toBe(1);
      expect(toolLedger([a, b], 'demo tool started', 'thread-x-retry')).toHaveLength(2);
    });

    it('makes one run of two identical requests sent at once to A and to B: one runs it, the other joins it', async () => {
      const [a, b] = await twoInstances({ DEMO_STEPS: '1', DEMO_TOOL_MS: '300' });
      const input = runInput('thread-x-twice', 'run-1', [{ id: 'u1', content: 'go' }]);

      const [one, two] = await Promise.all([
        startRun(a.baseUrl, user, input),
        startRun(b.baseUrl, user, input),
      ]);
      await Promise.all([one.done, two.done]);

      expect([one.error, two.error]).toEqual([undefined, undefined]);
      expect(await one.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
      expect(two.frames).toEqual(one.frames);
      expect(runAttempts([a, b], 'thread-x-twice')).toBe(1);
      expect((await toolResults(a, 'thread-x-twice')).map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
      ]);
    });

    it('resumes on B the thread of a SIGKILLed A once its lease expires, running every step exactly once', async () => {
      const [a, b] = await twoInstances({ DEMO_STEPS: '4', DEMO_TOOL_MS: '400' });
      const input = runInput('thread-x-crash', 'run-1', [{ id: 'u1', content: 'four steps' }]);
      const stream = await startRun(a.baseUrl, user, input);
      await stream.waitForEvent(isToolResult('step 1 done'), 'the step 1 result');

      a.kill('SIGKILL');
      await a.waitForExit();

      const status = await waitFor(async () => {
        const { body } = await api(b.baseUrl, '/v1/threads/thread-x-crash', { token: user });
        return body.status === 'interrupted' ? body : undefined;
      }, 'the thread to read interrupted after the lease expired');
      expect(status).toMatchObject({
        activeRunId: null,
        interrupt: { reason: 'crash', runId: 'run-1' },
        lastRun: { status: 'interrupted' },
      });

      const retry = await startRun(b.baseUrl, user, input);
      expect(await retry.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
      const messages = await toolResults(b, 'thread-x-crash');
      expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
        'step 1 done',
        'step 2 done',
        'step 3 done',
        'step 4 done',
      ]);
      expect(messages.filter((m) => m.role === 'system')).toHaveLength(1);
      expect(messages.filter((m) => m.role === 'user')).toHaveLength(1);
    });

    it('refuses every write of a paused instance whose lease was taken over, and stops its run', async () => {
      const [a, b] = await twoInstances({ DEMO_STEPS: '3', DEMO_TOOL_MS: '600' });
      const input = runInput('thread-x-fence', 'run-1', [{ id: 'u1', content: 'three steps' }]);
      const paused = await startRun(a.baseUrl, user, input);
      await paused.waitForEvent(isToolResult('step 1 done'), 'the step 1 result');

      a.kill('SIGSTOP');
      try {
        await waitFor(async () => {
          const { body } = await api(b.baseUrl, '/v1/threads/thread-x-fence', { token: user });
          return body.status === 'interrupted';
        }, 'the paused instance to lose its lease');
        const takeover = await startRun(b.baseUrl, user, input);
        await takeover.waitForEvent((e) => e.type === 'STEP_STARTED', 'the takeover to run');
      } finally {
        a.kill('SIGCONT');
      }

      expect(await paused.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'LEASE_LOST' });
      await waitFor(async () => {
        const { body } = await api(b.baseUrl, '/v1/threads/thread-x-fence', { token: user });
        return body.status === 'idle';
      }, 'the takeover to finish');
      const messages = await toolResults(b, 'thread-x-fence');
      expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
        'step 1 done',
        'step 2 done',
        'step 3 done',
      ]);
      expect(messages.filter((m) => m.role === 'system')).toHaveLength(1);
    });

    it('leaves a run on A alone while B, its clock a minute ahead, reads and sweeps its thread for several lease periods; each tool call runs once', async () => {
      const [a, b] = await twoInstances({ DEMO_STEPS: '3', DEMO_TOOL_MS: '1500' });
      const stream = await startRun(
        a.baseUrl,
        user,
        runInput('thread-x-skew', 'run-1', [{ id: 'u1', content: 'three slow steps' }]),
      );
      await stream.waitForEvent((e) => e.type === 'STEP_STARTED', 'the first step');

      // Every status read on B repairs a lease it sees expired, and B sweeps once per lease period:
      // with B's clock trusted, each would record A's live run as crashed.
      // The statuses B saw, in order, each once: the thread reads idle once A saved the run's end,
      // a moment before A's stream delivers the terminal event.
      const statuses: string[] = [];
      const firstRead = performance.now();
      let ended = false;
      void stream.done.then(() => (ended = true));
      await waitFor(
        async () => {
          const { body } = await api(b.baseUrl, '/v1/threads/thread-x-skew', { token: user });
          if (!ended && statuses.at(-1) !== body.status) statuses.push(body.status);
          return ended;
        },
        'the run on A to end',
        30_000,
        50,
      );
      const watchedMs = performance.now() - firstRead;

      expect(watchedMs).toBeGreaterThan(3 * LEASE_TTL_MS);
      expect([['running'], ['running', 'idle']]).toContainEqual(statuses);
      expect(await stream.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
      expect(
        (await api(b.baseUrl, '/v1/threads/thread-x-skew', { token: user })).body,
      ).toMatchObject({ status: 'idle', interrupt: null });
      const started = toolLedger([a, b], 'demo tool started', 'thread-x-skew');
      expect(started).toHaveLength(3);
      expect(new Set(started).size).toBe(3);
      expect(toolLedger([b], 'demo tool started', 'thread-x-skew')).toEqual([]);
    });
  },
);
