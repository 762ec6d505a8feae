import { api, runInput, tokenFor } from './support/http';
import { ServiceProcess } from './support/service-process';
import { joinRun, postRun, runShape, startRun, FINISHED_RUN } from './support/sse';
import { toolLedger } from './support/tool-ledger';

const user = tokenFor('mira');
// Long enough that the new request lands while a tool call is in progress.
const TOOL_MS = 1_500;

let service: ServiceProcess;

beforeAll(async () => {
  service = await ServiceProcess.start({
    env: { DEMO_STEPS: '3', DEMO_TOOL_MS: String(TOOL_MS), DEMO_REASONING_MS: '100' },
  });
});
afterAll(() => service?.stop());

const post = (
  threadId: string,
  runId: string,
  messages: Array<{ id: string; content: string }>,
  query = '',
) =>
  postRun(
    `${service.baseUrl}/v1/runs${query}`,
    { authorization: `Bearer ${user}` },
    runInput(threadId, runId, messages),
  );
const history = async (threadId: string) =>
  (await api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token: user })).body
    .messages as Array<{
    role: string;
    content: string;
    runId: string;
    toolCalls?: Array<{ id: string }>;
    toolCallId?: string;
  }>;

/**
 * A second message while the agent works, on one instance (SQLite): refused by default; with
 * `?multitask=interrupt` the active run stops at its next safe point (the call it cut answered
 * as for a cancel) and the new run follows on the whole history; with `rollback` what the active
 * run added is removed first.
 */
describe('a new run on a thread whose run is active', () => {
  it('is refused with 409 RUN_IN_PROGRESS by default, and the active run goes on', async () => {
    const first = await startRun(
      service.baseUrl,
      user,
      runInput('mt-reject', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    await first.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the first tool call');

    const second = await post('mt-reject', 'run-2', [{ id: 'u2', content: 'again' }]);

    expect(second.status).toBe(409);
    expect(second.error).toMatchObject({ code: 'RUN_IN_PROGRESS' });
    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
  });

  it('stops the active run with multitask=interrupt, ending its stream RUN_REPLACED, and runs the new one on the whole history', async () => {
    const first = await startRun(
      service.baseUrl,
      user,
      runInput('mt-interrupt', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    await first.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'a tool call in progress');

    const second = await post(
      'mt-interrupt',
      'run-2',
      [
        { id: 'u1', content: 'go' },
        { id: 'u2', content: 'no, the other account' },
      ],
      '?multitask=interrupt',
    );

    expect(await first.terminal()).toMatchObject({
      type: 'RUN_ERROR',
      code: 'RUN_REPLACED',
      replacedBy: { runId: 'run-2', multitask: 'interrupt' },
    });
    expect(second.status).toBe(200);
    expect(await second.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });
    const stored = await history('mt-interrupt');
    const at = stored.findIndex((m) => m.content === 'no, the other account');
    expect(stored.slice(0, at).every((m) => m.runId === 'run-1')).toBe(true);
    expect(stored.slice(at).every((m) => m.runId === 'run-2')).toBe(true);
    // Every call has exactly one answer: the one the stop cut is answered as for a cancel.
    const answers = stored.filter((m) => m.role === 'tool').map((m) => m.toolCallId);
    const calls = stored.flatMap((m) => m.toolCalls ?? []).map((call) => call.id);
    expect([...answers].sort()).toEqual([...calls].sort());
    expect(
      stored.filter((m) => m.role === 'tool' && m.content.startsWith('not completed')).length,
    ).toBe(1);
    const started = toolLedger([service], 'demo tool started', 'mt-interrupt');
    expect(new Set(started).size).toBe(started.length);
    const thread = (await api(service.baseUrl, '/v1/threads/mt-interrupt', { token: user })).body;
    expect(thread).toMatchObject({
      status: 'idle',
      lastRun: { runId: 'run-2', status: 'completed' },
    });
  });

  it("rolls the active run back with multitask=rollback: its messages gone, its done tool calls listed in the new run's first event", async () => {
    const first = await startRun(
      service.baseUrl,
      user,
      runInput('mt-rollback', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    await first.waitForEvent((e) => e.type === 'TOOL_CALL_RESULT', 'a first tool result');

    const second = await post(
      'mt-rollback',
      'run-2',
      [
        { id: 'u1', content: 'go' },
        { id: 'u2', content: 'start over, the other account' },
      ],
      '?multitask=rollback',
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
      value: {
        runId: 'run-1',
        effects: expect.arrayContaining([
          expect.objectContaining({
            toolName: 'demo_step',
            status: 'finished',
            result: 'step 1 done',
          }),
        ]),
      },
    });
    const stored = await history('mt-rollback');
    expect(stored.every((m) => m.runId === 'run-2')).toBe(true);
    // The rolled-back run's input, resent by the client, is not added again.
    expect(stored.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'start over, the other account',
    ]);
  });

  it("refuses another user's interrupt with 403, stopping nothing", async () => {
    const first = await startRun(
      service.baseUrl,
      user,
      runInput('mt-foreign', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    await first.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the first tool call');

    const foreign = await postRun(
      `${service.baseUrl}/v1/runs?multitask=interrupt`,
      { authorization: `Bearer ${tokenFor('eve')}` },
      runInput('mt-foreign', 'run-2', [{ id: 'e1', content: 'mine now' }]),
    );

    expect(foreign.status).toBe(403);
    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
  });

  it('starts at once with multitask=interrupt when the thread has no active run', async () => {
    const first = await startRun(
      service.baseUrl,
      user,
      runInput('mt-idle', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED' });

    const second = await post(
      'mt-idle',
      'run-2',
      [{ id: 'u2', content: 'more' }],
      '?multitask=interrupt',
    );

    expect(await second.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });
  });

  it('refuses a strategy it does not serve with 400 INVALID_MULTITASK, stopping nothing and writing nothing', async () => {
    const first = await startRun(
      service.baseUrl,
      user,
      runInput('mt-bad', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    await first.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the first tool call');

    const refusals = await Promise.all(
      ['sometimes', 'Enqueue', 'Interrupt'].map((multitask) =>
        post('mt-bad', 'run-2', [{ id: 'u2', content: 'x' }], `?multitask=${multitask}`),
      ),
    );

    for (const refusal of refusals) {
      expect(refusal.status).toBe(400);
      expect(refusal.error).toMatchObject({
        code: 'INVALID_MULTITASK',
        message: expect.stringMatching(/^multitask: /),
      });
    }
    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    expect((await history('mt-bad')).filter((m) => m.role === 'user')).toHaveLength(1);
  });
});

/** How many attempts the service started for a run (its `run started` log lines). */
const attemptsOf = (threadId: string, runId: string) =>
  service.logs
    .split('\n')
    .filter(
      (line) =>
        line.includes('"run started"') &&
        line.includes(`"threadId":"${threadId}"`) &&
        line.includes(`"runId":"${runId}"`),
    ).length;

/**
 * `?multitask=enqueue`: the new run is stored at once and starts when the runs before it end, in
 * arrival order; its stream opens at once, shows it waiting, then carries it to its end.
 */
describe('a new run queued on a busy thread (multitask=enqueue)', () => {
  it('waits in its own stream while the active run goes on, then runs after it on the whole history, once', async () => {
    const first = await startRun(
      service.baseUrl,
      user,
      runInput('mt-queue', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    await first.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the first tool call');

    const second = await post(
      'mt-queue',
      'run-2',
      [{ id: 'u2', content: 'and then the other account' }],
      '?multitask=enqueue',
    );
    await second.waitForEvent(
      (e) => e.type === 'CUSTOM' && e.name === 'run_queued',
      'the queued notice',
    );
    const waiting = (await api(service.baseUrl, '/v1/threads/mt-queue', { token: user })).body;

    expect(second.status).toBe(200);
    expect(second.events.slice(0, 2)).toEqual([
      { type: 'RUN_STARTED', threadId: 'mt-queue', runId: 'run-2' },
      { type: 'CUSTOM', name: 'run_queued', value: { position: 1, activeRunId: 'run-1' } },
    ]);
    expect(waiting).toMatchObject({ activeRunId: 'run-1', queuedRuns: 1 });
    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    expect(await second.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });
    expect(runShape(second.frames)).toMatchObject(FINISHED_RUN);
    const stored = await history('mt-queue');
    const at = stored.findIndex((m) => m.content === 'and then the other account');
    expect(stored.slice(0, at).every((m) => m.runId === 'run-1')).toBe(true);
    expect(stored.slice(at).every((m) => m.runId === 'run-2')).toBe(true);
    expect(stored.slice(at).some((m) => m.role === 'assistant')).toBe(true);
    expect(attemptsOf('mt-queue', 'run-2')).toBe(1);
    const started = toolLedger([service], 'demo tool started', 'mt-queue');
    expect(new Set(started).size).toBe(started.length);
    expect(
      (await api(service.baseUrl, '/v1/threads/mt-queue', { token: user })).body,
    ).toMatchObject({
      status: 'idle',
      queuedRuns: 0,
      lastRun: { runId: 'run-2' },
    });
  });

  it('starts queued runs in arrival order, and joins a retried enqueue to the same stream', async () => {
    const first = await startRun(
      service.baseUrl,
      user,
      runInput('mt-queue-order', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    await first.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the first tool call');
    const second = await post(
      'mt-queue-order',
      'run-2',
      [{ id: 'u2', content: 'second' }],
      '?multitask=enqueue',
    );
    await second.waitForEvent((e) => e.type === 'CUSTOM', 'the queued notice of run-2');
    const third = await post(
      'mt-queue-order',
      'run-3',
      [{ id: 'u3', content: 'third' }],
      '?multitask=enqueue',
    );
    await third.waitForEvent((e) => e.type === 'CUSTOM', 'the queued notice of run-3');

    const retried = await post(
      'mt-queue-order',
      'run-3',
      [{ id: 'u3', content: 'third' }],
      '?multitask=enqueue',
    );

    expect(third.events[1]).toMatchObject({ value: { position: 2 } });
    expect(await third.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-3' });
    expect(await retried.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-3' });
    expect(retried.frames).toEqual(third.frames);
    expect(await second.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });
    const users = (await history('mt-queue-order'))
      .filter((m) => m.role === 'user')
      .map((m) => m.runId);
    expect(users).toEqual(['run-1', 'run-2', 'run-3']);
    expect([attemptsOf('mt-queue-order', 'run-2'), attemptsOf('mt-queue-order', 'run-3')]).toEqual([
      1, 1,
    ]);
  });

  it('takes a queued run off the queue when its user cancels it: its stream ends RUN_CANCELED, the active run goes on, nothing of it is stored', async () => {
    const first = await startRun(
      service.baseUrl,
      user,
      runInput('mt-queue-cancel', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    await first.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the first tool call');
    const second = await post(
      'mt-queue-cancel',
      'run-2',
      [{ id: 'u2', content: 'never mind' }],
      '?multitask=enqueue',
    );
    await second.waitForEvent((e) => e.type === 'CUSTOM', 'the queued notice');

    const cancel = await api(
      service.baseUrl,
      '/v1/runs/mt-queue-cancel/cancel?runId=run-2&waitMs=5000',
      { method: 'POST', token: user },
    );

    expect(cancel.body).toMatchObject({ runId: 'run-2', stopped: true, stopReason: 'canceled' });
    expect(await second.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    expect((await history('mt-queue-cancel')).every((m) => m.runId === 'run-1')).toBe(true);
    expect(attemptsOf('mt-queue-cancel', 'run-2')).toBe(0);
    const joined = await joinRun(service.baseUrl, user, 'mt-queue-cancel', { runId: 'run-2' });
    expect(await joined.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
  });

  it('starts at once on an idle thread', async () => {
    const idle = await post(
      'mt-queue-idle',
      'run-1',
      [{ id: 'u1', content: 'go' }],
      '?multitask=enqueue',
    );

    expect(await idle.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    expect(idle.events.some((e) => e.type === 'CUSTOM' && e.name === 'run_queued')).toBe(false);
  });
});
