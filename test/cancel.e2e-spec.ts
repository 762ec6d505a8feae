import { api, runInput, tokenFor } from './support/http';
import { ServiceProcess } from './support/service-process';
import { startRun, type AgUiEvent, type RunStream } from './support/sse';
import { waitFor } from 'dev-services';

const user = tokenFor('dana');
// Each slow call lasts this long: long enough that a cancel lands while it is in progress.
const SLOW_MS = 5_000;

const cancel = (service: ServiceProcess, threadId: string, query = '') =>
  api(service.baseUrl, `/v1/runs/${threadId}/cancel${query}`, { method: 'POST', token: user });
const thread = async (service: ServiceProcess, threadId: string) =>
  (await api(service.baseUrl, `/v1/threads/${threadId}`, { token: user })).body;
const messages = async (service: ServiceProcess, threadId: string) =>
  (await api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token: user })).body
    .messages as Array<{
    id: string;
    role: string;
    content: string;
    toolCalls?: Array<{ id: string }>;
    toolCallId?: string;
  }>;
/** Tool calls of the history without a result, and calls answered more than once: both empty for a history valid for the chat format. */
const toolCallGaps = (stored: Awaited<ReturnType<typeof messages>>) => {
  const answers = stored.filter((m) => m.role === 'tool').map((m) => m.toolCallId);
  const calls = stored.flatMap((m) => m.toolCalls ?? []).map((call) => call.id);
  return {
    unanswered: calls.filter((id) => !answers.includes(id)),
    answeredTwice: answers.filter((id, i) => answers.indexOf(id) !== i),
  };
};
const NOT_COMPLETED =
  'not completed: the run was stopped before this tool call returned a result; its outcome is unknown.';
const terminals = (events: AgUiEvent[]) =>
  events.filter((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR');
/** Ids of the messages the stream announced: assistant messages and tool results. */
const streamedMessageIds = (events: AgUiEvent[]) => [
  ...new Set(
    events.flatMap((e) =>
      e.type === 'TEXT_MESSAGE_START' || e.type === 'TOOL_CALL_RESULT'
        ? [e.messageId]
        : e.type === 'TOOL_CALL_START'
          ? [e.parentMessageId]
          : [],
    ),
  ),
];

/** A cancel of a run stopped by `until`; records which events the stream sent after the cancel. */
async function cancelDuring(
  service: ServiceProcess,
  threadId: string,
  until: (stream: RunStream) => Promise<unknown>,
) {
  const stream = await startRun(
    service.baseUrl,
    user,
    runInput(threadId, 'run-1', [{ id: `${threadId}-u1`, content: 'do the steps' }]),
  );
  expect(stream.status).toBe(200);
  await until(stream);
  const before = stream.events.length;
  const response = await cancel(service, threadId);
  const terminal = await stream.terminal();
  return {
    stream,
    response,
    terminal,
    afterCancel: stream.events.slice(before).map((e) => e.type),
  };
}

describe('a cancel while the model is reasoning', () => {
  let service: ServiceProcess;
  let result: Awaited<ReturnType<typeof cancelDuring>>;

  beforeAll(async () => {
    service = await ServiceProcess.start({
      env: { DEMO_STEPS: '1', DEMO_REASONING_MS: String(SLOW_MS), DEMO_TOOL_MS: '100' },
    });
    // The second reasoning call comes after a tool result, so there is work to keep.
    result = await cancelDuring(service, 'thread-cancel-reasoning', (stream) =>
      waitFor(
        () =>
          stream.events.filter((e) => e.type === 'STEP_STARTED' && e.stepName === 'reasoning')
            .length === 2,
        'the second reasoning step',
        3 * SLOW_MS,
      ),
    );
  });
  afterAll(() => service?.stop());

  it('ends the stream with RUN_ERROR RUN_CANCELED without waiting for the reasoning call to finish', () => {
    expect(result.terminal).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
    expect(terminals(result.stream.events)).toHaveLength(1);
    // An aborted call produces nothing: only the open step's end and the terminal event follow.
    expect(result.afterCancel).toEqual(['STEP_FINISHED', 'RUN_ERROR']);
  });

  it('leaves the thread idle with its last run canceled', async () => {
    expect(await thread(service, 'thread-cancel-reasoning')).toMatchObject({
      status: 'idle',
      activeRunId: null,
      interrupt: null,
      lastRun: { runId: 'run-1', status: 'canceled', stopReason: 'canceled' },
    });
  });

  it('keeps the user message, the tool call and its result produced before the cancel', async () => {
    const stored = await messages(service, 'thread-cancel-reasoning');
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(stored.map((m) => m.id)).toEqual([
      'thread-cancel-reasoning-u1',
      ...streamedMessageIds(result.stream.events),
    ]);
    expect(stored[2].content).toBe('step 1 done');
  });
});

describe('a cancel while a tool runs', () => {
  let service: ServiceProcess;
  let result: Awaited<ReturnType<typeof cancelDuring>>;
  const acting = (stream: RunStream) =>
    Promise.all([
      stream.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the tool call'),
      stream.waitForEvent(
        (e) => e.type === 'STEP_STARTED' && e.stepName === 'acting',
        'the acting step',
      ),
    ]);

  beforeAll(async () => {
    service = await ServiceProcess.start({
      env: { DEMO_STEPS: '1', DEMO_REASONING_MS: '100', DEMO_TOOL_MS: String(SLOW_MS) },
    });
    result = await cancelDuring(service, 'thread-cancel-acting', acting);
  });
  afterAll(() => service?.stop());

  it('answers 202 with the thread, the run and accepted: true when no waitMs is given', () => {
    expect(result.response.status).toBe(202);
    expect(result.response.body).toEqual({
      threadId: 'thread-cancel-acting',
      runId: 'run-1',
      accepted: true,
    });
  });

  it('ends the stream with RUN_ERROR RUN_CANCELED without waiting for the tool call to finish', () => {
    expect(result.terminal).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
    expect(terminals(result.stream.events)).toHaveLength(1);
    // The aborted call is answered "not completed", then the open step ends and the terminal event follows.
    expect(result.afterCancel).toEqual(['TOOL_CALL_RESULT', 'STEP_FINISHED', 'RUN_ERROR']);
  });

  it('leaves the thread idle with its last run canceled and the cut tool call answered "not completed"', async () => {
    expect(await thread(service, 'thread-cancel-acting')).toMatchObject({
      status: 'idle',
      interrupt: null,
      lastRun: { runId: 'run-1', status: 'canceled' },
      messageCount: 3,
    });
    const stored = await messages(service, 'thread-cancel-acting');
    const [assistantId, resultId] = streamedMessageIds(result.stream.events);
    expect(stored.map((m) => [m.id, m.role])).toEqual([
      ['thread-cancel-acting-u1', 'user'],
      [assistantId, 'assistant'],
      [resultId, 'tool'],
    ]);
    expect(stored[2]).toMatchObject({
      toolCallId: stored[1].toolCalls?.[0].id,
      content: NOT_COMPLETED,
      runId: 'run-1',
    });
  });

  it('answers 200 with stopped, stopReason and messageCount once the run stopped when waitMs is given', async () => {
    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('thread-cancel-wait', 'run-1', [{ id: 'w-u1', content: 'x' }]),
    );
    await acting(stream);
    const response = await cancel(service, 'thread-cancel-wait', '?waitMs=20000');
    expect(response.status).toBe(200);
    const after = await thread(service, 'thread-cancel-wait');
    expect(response.body).toEqual({
      threadId: 'thread-cancel-wait',
      runId: 'run-1',
      accepted: true,
      stopped: true,
      stopReason: 'canceled',
      messageCount: after.messageCount,
    });
    expect(after).toMatchObject({ status: 'idle', lastRun: { status: 'canceled' } });
    expect(await stream.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
  });

  it('answers every tool call of the history by the time a cancel with waitMs answers stopped', async () => {
    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('thread-cancel-valid', 'run-1', [{ id: 'v-u1', content: 'x' }]),
    );
    await acting(stream);

    const response = await cancel(service, 'thread-cancel-valid', '?waitMs=20000');

    expect(response.body).toMatchObject({ stopped: true, stopReason: 'canceled', messageCount: 3 });
    const stored = await messages(service, 'thread-cancel-valid');
    expect(toolCallGaps(stored)).toEqual({ unanswered: [], answeredTwice: [] });
    expect(stored[stored.length - 1]).toMatchObject({ role: 'tool', content: NOT_COMPLETED });
    await stream.done;
  });

  it('accepts a second cancel of the same run and still ends it exactly once', async () => {
    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('thread-cancel-twice', 'run-1', [{ id: 't-u1', content: 'x' }]),
    );
    await acting(stream);
    const first = await cancel(service, 'thread-cancel-twice', '?runId=run-1');
    const second = await cancel(service, 'thread-cancel-twice', '?runId=run-1');
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.body).toMatchObject({ runId: 'run-1', accepted: true });
    await stream.done;
    expect(terminals(stream.events)).toEqual([
      expect.objectContaining({ type: 'RUN_ERROR', code: 'RUN_CANCELED' }),
    ]);
    expect((await thread(service, 'thread-cancel-twice')).lastRun).toMatchObject({
      status: 'canceled',
    });
  });

  it('treats a cancel of a finished run as accepted and stopped, and the run stays completed', async () => {
    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('thread-cancel-done', 'run-1', [{ id: 'd-u1', content: 'x' }]),
    );
    expect(await stream.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    const before = await thread(service, 'thread-cancel-done');

    const plain = await cancel(service, 'thread-cancel-done');
    const waiting = await cancel(service, 'thread-cancel-done', '?runId=run-1&waitMs=1000');
    expect(plain).toMatchObject({
      status: 202,
      body: { threadId: 'thread-cancel-done', runId: 'run-1', accepted: true },
    });
    expect(waiting.status).toBe(200);
    expect(waiting.body).toMatchObject({
      runId: 'run-1',
      accepted: true,
      stopped: true,
      stopReason: 'completed',
      messageCount: before.messageCount,
    });
    expect(await thread(service, 'thread-cancel-done')).toEqual(before);
  });

  it('continues the conversation with a new user message after the cancel, without a resume message', async () => {
    const next = await startRun(
      service.baseUrl,
      user,
      runInput('thread-cancel-acting', 'run-2', [
        { id: 'thread-cancel-acting-u1', content: 'do the steps' },
        { id: 'thread-cancel-acting-u2', content: 'go on' },
      ]),
    );
    expect(await next.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });

    const stored = await messages(service, 'thread-cancel-acting');
    expect(stored.filter((m) => m.role === 'system')).toEqual([]);
    // The canceled call keeps its one "not completed" result: the next run adds none for it.
    expect(toolCallGaps(stored)).toEqual({ unanswered: [], answeredTwice: [] });
    expect(stored.filter((m) => m.content === NOT_COMPLETED)).toHaveLength(1);
    expect(stored.filter((m) => m.role === 'user').map((m) => m.id)).toEqual([
      'thread-cancel-acting-u1',
      'thread-cancel-acting-u2',
    ]);
    expect(stored[stored.length - 1]).toMatchObject({
      role: 'assistant',
      content: 'All 1 steps are done for: go on',
    });
    expect(await thread(service, 'thread-cancel-acting')).toMatchObject({
      status: 'idle',
      interrupt: null,
      lastRun: { runId: 'run-2', status: 'completed' },
    });
  });

  it('answers a retry of the canceled run with its replay, and refuses new messages under its id, writing nothing', async () => {
    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('thread-cancel-reuse', 'run-1', [{ id: 'r-u1', content: 'x' }]),
    );
    await acting(stream);
    expect((await cancel(service, 'thread-cancel-reuse', '?waitMs=20000')).body).toMatchObject({
      stopped: true,
      stopReason: 'canceled',
    });
    await stream.done;
    const before = (
      await api(service.baseUrl, '/v1/threads/thread-cancel-reuse/messages', { token: user })
    ).body;

    const replay = await startRun(
      service.baseUrl,
      user,
      runInput('thread-cancel-reuse', 'run-1', [{ id: 'r-u1', content: 'x' }]),
    );
    const reused = await startRun(
      service.baseUrl,
      user,
      runInput('thread-cancel-reuse', 'run-1', [
        { id: 'r-u1', content: 'x' },
        { id: 'r-u2', content: 'again' },
      ]),
    );

    expect(await replay.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
    expect(replay.frames).toEqual(stream.frames);
    expect(reused.status).toBe(409);
    expect(reused.error).toMatchObject({ code: 'RUN_ID_REUSED', field: 'messages' });
    expect(
      (await api(service.baseUrl, '/v1/threads/thread-cancel-reuse/messages', { token: user }))
        .body,
    ).toEqual(before);
  });
});
