import { api, runInput, tokenFor } from './support/http';
import { ServiceProcess } from './support/service-process';
import { startRun, type AgUiEvent } from './support/sse';

const user = tokenFor('erin');
const EXISTING = 'thread-input';
const FRESH = 'thread-fresh';

/** A valid run request, changed by `edit`; on the existing thread unless it says otherwise. */
function request(
  edit: (input: Record<string, any>) => void = () => {},
  threadId = EXISTING,
): Record<string, any> {
  const input: Record<string, any> = runInput(threadId, 'run-bad', [
    { id: `${threadId}-u1`, content: 'first' },
    { id: 'new-u', content: 'more' },
  ]);
  edit(input);
  return input;
}

/** The AG-UI messages a client holds after a run: each under the id its stream event carried. */
function conversationFrom(events: AgUiEvent[]): Array<Record<string, unknown>> {
  const messages: Array<Record<string, any>> = [];
  for (const event of events) {
    if (event.type === 'TEXT_MESSAGE_START')
      messages.push({ id: event.messageId, role: 'assistant', content: '' });
    if (event.type === 'TEXT_MESSAGE_CONTENT')
      messages.find((m) => m.id === event.messageId)!.content += event.delta;
    if (event.type === 'TOOL_CALL_START') {
      let parent = messages.find((m) => m.id === event.parentMessageId);
      if (!parent)
        messages.push((parent = { id: event.parentMessageId, role: 'assistant', toolCalls: [] }));
      parent.toolCalls = [
        ...(parent.toolCalls ?? []),
        {
          id: event.toolCallId,
          type: 'function',
          function: { name: event.toolCallName, arguments: '' },
        },
      ];
    }
    if (event.type === 'TOOL_CALL_ARGS') {
      messages
        .flatMap((m) => m.toolCalls ?? [])
        .find((c: any) => c.id === event.toolCallId).function.arguments += event.delta;
    }
    if (event.type === 'TOOL_CALL_RESULT')
      messages.push({
        id: event.messageId,
        role: 'tool',
        toolCallId: event.toolCallId,
        content: event.content,
      });
  }
  return messages;
}

describe('run input', () => {
  let service: ServiceProcess;
  let before: { thread: unknown; messages: unknown };
  const snapshot = async (threadId = EXISTING) => ({
    thread: (await api(service.baseUrl, `/v1/threads/${threadId}`, { token: user })).body,
    messages: (await api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token: user }))
      .body,
  });
  const post = (body: unknown) =>
    api(service.baseUrl, '/v1/runs', { method: 'POST', token: user, body });
  const messagesOf = async (threadId: string) =>
    (await snapshot(threadId)).messages as { messages: Array<Record<string, any>> };

  beforeAll(async () => {
    service = await ServiceProcess.start();
    const run = await startRun(
      service.baseUrl,
      user,
      runInput(EXISTING, 'run-1', [{ id: `${EXISTING}-u1`, content: 'first' }]),
    );
    expect(await run.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    before = await snapshot();
  });
  afterAll(() => service?.stop());

  it('answers 400 INVALID_JSON naming the body when it is not valid JSON, and creates no thread', async () => {
    const response = await post(`{"threadId":"${FRESH}","runId":"run-1","messages":[`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      statusCode: 400,
      code: 'INVALID_JSON',
      message: expect.stringMatching(/^body: /),
    });
    expect((await api(service.baseUrl, `/v1/threads/${FRESH}`, { token: user })).status).toBe(404);
  });

  it('answers 413 to a body over 1 MB and creates no thread', async () => {
    const response = await post(
      runInput(FRESH, 'run-1', [{ id: 'big', content: 'x'.repeat(1_100_000) }]),
    );
    expect(response.status).toBe(413);
    expect(response.body).toEqual({
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringMatching(/^body: /),
    });
    expect((await api(service.baseUrl, `/v1/threads/${FRESH}`, { token: user })).status).toBe(404);
  });

  const invalid: Array<[string, string, Record<string, any>]> = [
    ['no threadId', 'threadId', request((i) => delete i.threadId)],
    ['a threadId with a space', 'threadId', request((i) => (i.threadId = 'thread input'))],
    ['a threadId of 129 characters', 'threadId', request((i) => (i.threadId = 't'.repeat(129)))],
    ['an invalid runId', 'runId', request((i) => (i.runId = 'run 1'))],
    ['a message without id', 'messages[1].id', request((i) => delete i.messages[1].id)],
    ['messages that are not an array', 'messages', request((i) => (i.messages = 'hello'))],
    [
      'a message content of a wrong type',
      'messages[1].content',
      request((i) => (i.messages[1].content = 42)),
    ],
  ];

  it.each(invalid)(
    'answers 400 or 422 naming the field to %s and leaves the thread unchanged',
    async (_what, field, body) => {
      const response = await post(body);
      expect([400, 422]).toContain(response.status);
      expect(response.body).toMatchObject({
        statusCode: response.status,
        code: expect.stringMatching(/^[A-Z_]+$/),
      });
      expect(response.body.message).toContain(field);
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each([
    ['an invalid runId', 'runId', request((i) => (i.runId = 'run 1'), FRESH)],
    ['a message without id', 'messages[0].id', request((i) => delete i.messages[0].id, FRESH)],
    [
      'a message content of a wrong type',
      'messages[0].content',
      request((i) => (i.messages[0].content = { text: 1 }), FRESH),
    ],
  ])(
    'answers 400 or 422 naming the field to %s for a new thread and creates no thread',
    async (_what, field, body) => {
      const response = await post(body);
      expect([400, 422]).toContain(response.status);
      expect(response.body.message).toContain(field);
      expect((await api(service.baseUrl, `/v1/threads/${FRESH}`, { token: user })).status).toBe(
        404,
      );
    },
  );

  it.each([
    ['waitMs', '?waitMs=-1'],
    ['waitMs', '?waitMs=30001'],
    ['waitMs', '?waitMs=abc'],
    ['runId', '?runId=run%201'],
    ['runId', `?runId=${'r'.repeat(129)}`],
  ])(
    'answers 400 naming %s to a cancel with %s and leaves the thread unchanged',
    async (field, query) => {
      const response = await api(service.baseUrl, `/v1/runs/${EXISTING}/cancel${query}`, {
        method: 'POST',
        token: user,
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        statusCode: 400,
        code: expect.stringMatching(/^[A-Z_]+$/),
      });
      expect(response.body.message).toContain(field);
      expect(await snapshot()).toEqual(before);
    },
  );

  it('does not add the messages of a client retry with the same message ids again', async () => {
    const input = runInput('thread-retry', 'run-1', [{ id: 'retry-u1', content: 'once' }]);
    expect(await (await startRun(service.baseUrl, user, input)).terminal()).toMatchObject({
      type: 'RUN_FINISHED',
    });
    const first = await messagesOf('thread-retry');

    expect(await (await startRun(service.baseUrl, user, input)).terminal()).toMatchObject({
      type: 'RUN_FINISHED',
    });
    const stored = (await messagesOf('thread-retry')).messages;
    expect(stored.filter((m) => m.role === 'user').map((m) => m.id)).toEqual(['retry-u1']);
    expect(stored.slice(0, first.messages.length)).toEqual(first.messages);
    expect(new Set(stored.map((m) => m.id)).size).toBe(stored.length);
  });

  it('stores echoed assistant and tool messages once when the client resends the whole conversation', async () => {
    const firstRun = await startRun(
      service.baseUrl,
      user,
      runInput('thread-echo', 'run-1', [{ id: 'echo-u1', content: 'first' }]),
    );
    expect(await firstRun.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    const first = (await messagesOf('thread-echo')).messages;
    const conversation = [
      { id: 'echo-u1', role: 'user', content: 'first' },
      ...conversationFrom(firstRun.events),
    ];
    expect(conversation.map((m) => m.id)).toEqual(first.map((m) => m.id));

    const input = {
      ...runInput('thread-echo', 'run-2', []),
      messages: [...conversation, { id: 'echo-u2', role: 'user', content: 'second' }],
    };
    const secondRun = await startRun(service.baseUrl, user, input);
    expect(await secondRun.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });

    const stored = (await messagesOf('thread-echo')).messages;
    expect(stored.slice(0, first.length)).toEqual(first);
    expect(stored.slice(first.length).map((m) => m.id)).toEqual([
      'echo-u2',
      ...conversationFrom(secondRun.events).map((m) => m.id),
    ]);
  });
});
