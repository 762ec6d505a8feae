import { HttpAgent, type Message } from '@ag-ui/client';
import { ResumableHttpAgent } from 'nest-agent-graceful-shutdown/client';
import { FakeOpenAiServer, textChunks, waitFor } from 'dev-services';
import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { startRun, postRun, joinRun, runShape, type RunStream } from './support/sse';

const user = tokenFor('ivy');
const services = new ServiceGroup();
let model: FakeOpenAiServer;
let service: ServiceProcess;

/** The service on the scripted model, so every model call is counted. */
const onScriptedModel = (env: Record<string, string> = {}) =>
  services.start({
    env: {
      MODEL_PROVIDER: 'openai',
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: 'test-key',
      MODEL_NAME: 'scripted-model',
      MODEL_MAX_RETRIES: '0',
      ...env,
    },
  });

/** One model answer: `words` streamed `delayMs` apart (a run that stays active that long). */
const answer = (words: string[], delayMs = 0) =>
  model.enqueue({ kind: 'stream', chunks: textChunks(words, { delayMs }) });

/** What the store holds of a thread: its messages and its last run, as any client reads them. */
async function stored(threadId: string) {
  const [thread, messages] = await Promise.all([
    api(service.baseUrl, `/v1/threads/${threadId}`, { token: user }),
    api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token: user }),
  ]);
  return {
    lastRun: thread.body.lastRun,
    messageCount: thread.body.messageCount,
    messages: messages.body.messages,
  };
}

const request = (threadId: string, messages = [{ id: `${threadId}-u1`, content: 'hello' }]) =>
  runInput(threadId, 'run-1', messages);

/** POSTs `input` with a `Last-Event-ID` header. */
const retryAfter = (input: unknown, lastEventId: number): Promise<RunStream> =>
  postRun(
    `${service.baseUrl}/v1/runs`,
    { authorization: `Bearer ${user}`, 'last-event-id': String(lastEventId) },
    input,
  );

beforeAll(async () => {
  model = await FakeOpenAiServer.start();
  // No drain: a SIGTERM stops the run in progress at once (a case below interrupts one).
  service = await onScriptedModel({ SHUTDOWN_DRAIN_TIMEOUT_MS: '0', SHUTDOWN_TIMEOUT_MS: '10000' });
});
afterAll(async () => {
  await services.stopAll();
  await model?.close();
});

describe('a run request naming a run that already exists', () => {
  it('answers a retry of a finished run with a replay of its log, with the same ids, and calls no model and writes nothing', async () => {
    answer(['All ', 'done.']);
    const first = await startRun(service.baseUrl, user, request('idem-finished'));
    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    const calls = model.requests.length;
    const before = await stored('idem-finished');

    const retry = await startRun(service.baseUrl, user, request('idem-finished'));
    await retry.done;

    expect(retry.status).toBe(200);
    expect(retry.frames).toEqual(first.frames);
    expect(model.requests).toHaveLength(calls);
    expect(await stored('idem-finished')).toEqual(before);
    expect(before.messageCount).toBe(2);
  });

  it('replays only the events after the Last-Event-ID the retry sends', async () => {
    answer(['One ', 'two.']);
    const first = await startRun(service.baseUrl, user, request('idem-last-id'));
    await first.done;

    const retry = await retryAfter(request('idem-last-id'), 2);
    await retry.done;

    expect(retry.frames).toEqual(first.frames.slice(2));
  });

  it('joins the active run when the same request arrives while it runs, from the start or after Last-Event-ID', async () => {
    answer(['a ', 'slow ', 'answer ', 'in ', 'parts.'], 300);
    const calls = model.requests.length;
    const first = await startRun(service.baseUrl, user, request('idem-active'));
    await waitFor(() => first.frames.length >= 3, 'the run to be under way');

    const [whole, after2] = await Promise.all([
      startRun(service.baseUrl, user, request('idem-active')),
      retryAfter(request('idem-active'), 2),
    ]);
    await Promise.all([first.done, whole.done, after2.done]);

    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    expect(whole.frames).toEqual(first.frames);
    expect(after2.frames).toEqual(first.frames.slice(2));
    expect(model.requests).toHaveLength(calls + 1);
  });

  it('makes one run of two identical requests sent at once: one runs it, the other joins it', async () => {
    answer(['only ', 'once.'], 200);
    const calls = model.requests.length;

    const [one, two] = await Promise.all([
      startRun(service.baseUrl, user, request('idem-race')),
      startRun(service.baseUrl, user, request('idem-race')),
    ]);
    await Promise.all([one.done, two.done]);

    expect([one.error, two.error]).toEqual([undefined, undefined]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(await one.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    expect(two.frames).toEqual(one.frames);
    expect(model.requests).toHaveLength(calls + 1);
    expect((await stored('idem-race')).messages.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
    ]);
  });

  it('refuses new messages under an existing runId with 409 RUN_ID_REUSED naming the field, and writes nothing', async () => {
    answer(['Done.']);
    await (
      await startRun(service.baseUrl, user, request('idem-reused'))
    ).done;
    const before = await stored('idem-reused');
    const calls = model.requests.length;

    const reused = await startRun(
      service.baseUrl,
      user,
      request('idem-reused', [
        { id: 'idem-reused-u1', content: 'hello' },
        { id: 'idem-reused-u2', content: 'and more' },
      ]),
    );

    expect(reused.status).toBe(409);
    expect(reused.error).toMatchObject({
      code: 'RUN_ID_REUSED',
      field: 'messages',
      runId: 'run-1',
    });
    expect(reused.error.message).toContain('idem-reused-u2');
    expect(await stored('idem-reused')).toEqual(before);
    expect(model.requests).toHaveLength(calls);
  });

  it("refuses a retry of another user's run with 403, before anything is read out", async () => {
    answer(['Mine.']);
    await (
      await startRun(service.baseUrl, user, request('idem-owner'))
    ).done;

    const other = await startRun(service.baseUrl, tokenFor('mallory'), request('idem-owner'));

    expect(other.status).toBe(403);
    expect(other.events).toEqual([]);
  });

  it('answers a Last-Event-ID beyond the end of the log with 400 INVALID_EVENT_ID', async () => {
    answer(['Short.']);
    const first = await startRun(service.baseUrl, user, request('idem-beyond'));
    await first.done;

    const [retry, join] = await Promise.all([
      retryAfter(request('idem-beyond'), first.frames.length + 5),
      joinRun(service.baseUrl, user, 'idem-beyond', { lastEventId: first.frames.length + 5 }),
    ]);

    expect([retry.status, join.status]).toEqual([400, 400]);
    expect(retry.error).toMatchObject({ code: 'INVALID_EVENT_ID' });
    expect(join.error).toMatchObject({ code: 'INVALID_EVENT_ID' });
  });
});

describe('a retry of an ended run whose log is gone', () => {
  it('is answered 409 RUN_ALREADY_ENDED with the runId and the status, and nothing is written', async () => {
    const shortLived = await onScriptedModel({ STREAM_RETENTION_MS: '1' });
    answer(['Gone soon.']);
    await (
      await startRun(shortLived.baseUrl, user, request('idem-gone'))
    ).done;
    await waitFor(
      async () => (await joinRun(shortLived.baseUrl, user, 'idem-gone')).status === 410,
      'the log to be evicted',
    );
    const calls = model.requests.length;
    const messages = (
      await api(shortLived.baseUrl, '/v1/threads/idem-gone/messages', { token: user })
    ).body;

    const retry = await startRun(shortLived.baseUrl, user, request('idem-gone'));

    expect(retry.status).toBe(409);
    expect(retry.error).toMatchObject({
      code: 'RUN_ALREADY_ENDED',
      runId: 'run-1',
      status: 'completed',
    });
    expect(model.requests).toHaveLength(calls);
    expect(
      (await api(shortLived.baseUrl, '/v1/threads/idem-gone/messages', { token: user })).body,
    ).toEqual(messages);
  });
});

describe.each([
  [
    '@ag-ui/client HttpAgent',
    (config: ConstructorParameters<typeof HttpAgent>[0]) => new HttpAgent(config),
  ],
  [
    'ResumableHttpAgent',
    (config: ConstructorParameters<typeof HttpAgent>[0]) => new ResumableHttpAgent(config),
  ],
])('a retry through %s', (_name, makeAgent) => {
  it('gets the finished run again, with no model call and the thread unchanged', async () => {
    const threadId = `idem-client-${_name.length}`;
    const initialMessages: Message[] = [{ id: `${threadId}-u1`, role: 'user', content: 'hello' }];
    const agent = makeAgent({
      url: `${service.baseUrl}/v1/runs`,
      headers: { Authorization: `Bearer ${user}` },
      threadId,
      initialMessages,
    });
    answer(['Hi ', 'there.']);
    const first = await agent.runAgent({ runId: 'run-1' });
    const calls = model.requests.length;
    const before = await stored(threadId);

    const retry = makeAgent({
      url: `${service.baseUrl}/v1/runs`,
      headers: { Authorization: `Bearer ${user}` },
      threadId,
      initialMessages,
    });
    const again = await retry.runAgent({ runId: 'run-1' });

    expect(again.newMessages).toEqual(first.newMessages);
    expect(retry.messages.map((m) => m.id)).toEqual(
      before.messages.map((m: { id: string }) => m.id),
    );
    expect(model.requests).toHaveLength(calls);
    expect(await stored(threadId)).toEqual(before);
  });
});

describe('a retry of a run whose resumed attempt failed', () => {
  it('is answered with one sequence ending with the failure, the interrupted attempt read as a notice, never RUN_INTERRUPTED', async () => {
    const stopping = service;
    answer(['cut ', 'short ', 'by ', 'the ', 'shutdown.'], 300);
    const first = await startRun(stopping.baseUrl, user, request('idem-failed-resume'));
    await first.waitForEvent(
      (event) => event.type === 'TEXT_MESSAGE_CONTENT',
      'the answer to be under way',
    );
    stopping.kill('SIGTERM');
    expect(await first.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
    await stopping.waitForExit();
    // Any case after this one uses the restarted process.
    const restarted = (service = await services.restart(stopping));
    model.enqueue({ kind: 'error', status: 401, body: { error: { message: 'bad key' } } });
    const resumed = await startRun(restarted.baseUrl, user, request('idem-failed-resume'));
    expect(await resumed.terminal()).toMatchObject({
      type: 'RUN_ERROR',
      code: 'MODEL_AUTH_FAILED',
    });

    const [resent, joined] = await Promise.all([
      startRun(restarted.baseUrl, user, request('idem-failed-resume')),
      joinRun(restarted.baseUrl, user, 'idem-failed-resume'),
    ]);
    await Promise.all([resent.done, joined.done]);

    expect(runShape(resent.frames)).toEqual({
      runStarted: 1,
      terminal: 1,
      first: 'RUN_STARTED',
      last: 'RUN_ERROR',
      consecutiveIds: true,
    });
    expect(resent.events.at(-1)).toMatchObject({ code: 'MODEL_AUTH_FAILED' });
    expect(
      resent.events.filter((event) => event.type === 'CUSTOM').map((event) => event.name),
    ).toEqual(['run_interrupted', 'run_resumed']);
    expect(joined.frames).toEqual(resent.frames);
  });
});
