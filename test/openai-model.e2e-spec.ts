import { HttpAgent } from '@ag-ui/client';
import { FakeOpenAiServer, textChunks, toolCallChunks, waitFor } from 'dev-services';
import { api, runInput, tokenFor, TEST_SECRET } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { startRun, type AgUiEvent } from './support/sse';

const user = tokenFor('olga');
const services = new ServiceGroup();
let model: FakeOpenAiServer;

beforeEach(async () => {
  model = await FakeOpenAiServer.start();
});
afterEach(async () => {
  await services.stopAll();
  await model.close();
});

/** The service on the scripted OpenAI-compatible server. */
const openAiService = (env: Record<string, string> = {}) =>
  services.start({
    env: {
      MODEL_PROVIDER: 'openai',
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: 'test-key',
      MODEL_NAME: 'scripted-model',
      MODEL_MAX_RETRIES: '1',
      ...env,
    },
  });

const messagesOf = async (service: ServiceProcess, threadId: string) => {
  const { body } = await api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token: user });
  return body.messages as Array<{
    role: string;
    content: string;
    truncated?: boolean;
    toolCallId?: string;
  }>;
};

const deltas = (events: AgUiEvent[]) =>
  events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta as string);

describe('the service on an OpenAI-compatible model', () => {
  it('streams the answer as content events in order, runs streamed tool calls and sends their results back', async () => {
    model.enqueue(
      {
        kind: 'stream',
        chunks: toolCallChunks([{ id: 'call_1', name: 'demo_step', arguments: '{"step":1}' }], {
          splitArgs: 3,
        }),
      },
      {
        kind: 'stream',
        chunks: textChunks(['All ', 'steps ', 'done.'], {
          delayMs: 20,
          usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
        }),
      },
    );
    const service = await openAiService();

    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('oa-stream', 'run-1', [{ id: 'u1', content: 'do step 1' }]),
    );

    expect(await stream.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    expect(deltas(stream.events)).toEqual(['All ', 'steps ', 'done.']);
    expect(stream.events.filter((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject([
      { toolCallId: 'call_1', content: 'step 1 done' },
    ]);
    const status = await api(service.baseUrl, '/v1/threads/oa-stream', { token: user });
    expect(status.body.lastRun).toMatchObject({
      status: 'completed',
      usage: { promptTokens: 12, completionTokens: 3 },
    });
    const second = model.requests[1].body as {
      model: string;
      messages: Array<Record<string, unknown>>;
    };
    expect(second.model).toBe('scripted-model');
    expect(second.messages.slice(-2)).toMatchObject([
      {
        role: 'assistant',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'demo_step', arguments: '{"step":1}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'step 1 done' },
    ]);
  });

  it.each(['save', 'discard'] as const)(
    'on SIGTERM mid-answer closes the model connection, keeps the partial text by policy %s, and resumes with it',
    async (policy) => {
      model.enqueue({
        kind: 'stream',
        chunks: [
          ...textChunks(['The answer ', 'is '], { delayMs: 10 }),
          ...textChunks(['never sent'], { delayMs: 30_000 }),
        ],
      });
      const first = await openAiService({
        PARTIAL_OUTPUT: policy,
        SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
        SHUTDOWN_TIMEOUT_MS: '10000',
      });
      const input = runInput(`oa-term-${policy}`, 'run-1', [{ id: 'u1', content: 'answer' }]);
      const stream = await startRun(first.baseUrl, user, input);
      await stream.waitForEvent(
        (e) => e.type === 'TEXT_MESSAGE_CONTENT' && e.delta === 'is ',
        'the second delta',
      );

      first.kill('SIGTERM');

      expect(await stream.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
      expect((await first.waitForExit()).code).toBe(0);
      await model.waitForClosedEarly(0);
      model.enqueue({ kind: 'stream', chunks: textChunks(['Resumed.']) });
      const second = await services.restart(first);
      const stored = await messagesOf(second, `oa-term-${policy}`);
      const partial = stored.filter((m) => m.role === 'assistant');
      expect(partial).toEqual(
        policy === 'save'
          ? [expect.objectContaining({ content: 'The answer is ', truncated: true })]
          : [],
      );

      expect(await (await startRun(second.baseUrl, user, input)).terminal()).toMatchObject({
        type: 'RUN_FINISHED',
      });
      const resumed = model.requests[1].body as {
        messages: Array<{ role: string; content: string | null }>;
      };
      const system = resumed.messages
        .filter((m) => m.role === 'system')
        .map((m) => m.content ?? '');
      expect(system.some((text) => text.includes('was interrupted'))).toBe(true);
      if (policy === 'save') {
        expect(resumed.messages).toContainEqual(
          expect.objectContaining({ role: 'assistant', content: 'The answer is ' }),
        );
        expect(system.some((text) => text.includes('cut off'))).toBe(true);
      } else {
        expect(resumed.messages.some((m) => m.role === 'assistant')).toBe(false);
      }
    },
  );

  it('on a cancel mid-answer closes the model connection and keeps the partial text, without a resume message next time', async () => {
    model.enqueue({
      kind: 'stream',
      chunks: [
        ...textChunks(['Half ', 'an '], { delayMs: 10 }),
        ...textChunks(['answer'], { delayMs: 30_000 }),
      ],
    });
    const service = await openAiService();
    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('oa-cancel', 'run-1', [{ id: 'u1', content: 'answer' }]),
    );
    await stream.waitForEvent(
      (e) => e.type === 'TEXT_MESSAGE_CONTENT' && e.delta === 'an ',
      'the second delta',
    );

    const cancel = await api(service.baseUrl, '/v1/runs/oa-cancel/cancel?waitMs=10000', {
      method: 'POST',
      token: user,
    });

    expect(cancel.body).toMatchObject({ stopped: true, stopReason: 'canceled' });
    expect(await stream.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
    await model.waitForClosedEarly(0);
    expect((await messagesOf(service, 'oa-cancel')).filter((m) => m.role === 'assistant')).toEqual([
      expect.objectContaining({ content: 'Half an ', truncated: true }),
    ]);
  });

  it('retries a 429 and completes', async () => {
    model.enqueue(
      {
        kind: 'error',
        status: 429,
        body: { error: { message: 'slow down' } },
        headers: { 'retry-after-ms': '10' },
      },
      { kind: 'stream', chunks: textChunks(['fine']) },
    );
    const service = await openAiService();

    const stream = await startRun(
      service.baseUrl,
      user,
      runInput('oa-429', 'run-1', [{ id: 'u1', content: 'hi' }]),
    );

    expect(await stream.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    expect(model.requests).toHaveLength(2);
  });

  it.each([
    [
      'a 500 until the retries run out',
      {
        kind: 'error',
        status: 500,
        body: { error: { message: 'down' } },
        headers: { 'retry-after-ms': '10' },
      },
      'MODEL_UNAVAILABLE',
    ],
    [
      'a malformed chunk',
      { kind: 'stream', chunks: [{ data: '{not json' }] },
      'MODEL_BAD_RESPONSE',
    ],
    [
      'a 401',
      { kind: 'error', status: 401, body: { error: { message: 'bad key' } } },
      'MODEL_AUTH_FAILED',
    ],
  ] as const)('ends the run with a clear RUN_ERROR on %s', async (_what, response, code) => {
    model.enqueue(response, response);
    const service = await openAiService();

    const stream = await startRun(
      service.baseUrl,
      user,
      runInput(`oa-${code}`, 'run-1', [{ id: 'u1', content: 'hi' }]),
    );

    const terminal = await stream.terminal();
    expect(terminal).toMatchObject({ type: 'RUN_ERROR', code });
    expect(String(terminal?.message)).toMatch(/model/i);
  });

  it('produces a stream cut off mid-answer by a cancel, and a model error stream, that HttpAgent accepts', async () => {
    model.enqueue(
      {
        kind: 'stream',
        chunks: [
          ...textChunks(['Half '], { delayMs: 5 }),
          ...textChunks(['more'], { delayMs: 30_000 }),
        ],
      },
      { kind: 'error', status: 401, body: { error: { message: 'bad key' } } },
    );
    const service = await openAiService();
    const clientFor = (threadId: string) =>
      new HttpAgent({
        url: `${service.baseUrl}/v1/runs`,
        headers: { Authorization: `Bearer ${user}` },
        threadId,
        initialMessages: [{ id: 'u1', role: 'user', content: 'go' }],
      });
    const errors: string[] = [];
    const failures: unknown[] = [];
    let deltasSeen = 0;

    const cut = clientFor('oa-client-cut').runAgent(
      { runId: 'run-1' },
      {
        onRunErrorEvent: ({ event }) => void errors.push(String(event.code)),
        onRunFailed: ({ error }) => void failures.push(error),
        onTextMessageContentEvent: () => void deltasSeen++,
      },
    );
    await waitFor(() => deltasSeen > 0, 'the first delta to reach the client');
    await api(service.baseUrl, '/v1/runs/oa-client-cut/cancel', { method: 'POST', token: user });
    await cut;
    await clientFor('oa-client-error').runAgent(
      { runId: 'run-1' },
      {
        onRunErrorEvent: ({ event }) => void errors.push(String(event.code)),
        onRunFailed: ({ error }) => void failures.push(error),
      },
    );

    expect(errors).toEqual(['RUN_CANCELED', 'MODEL_AUTH_FAILED']);
    expect(failures).toEqual([]);
  });

  it('produces streams that @ag-ui/client HttpAgent accepts', async () => {
    model.enqueue(
      {
        kind: 'stream',
        chunks: toolCallChunks([{ id: 'call_9', name: 'demo_step', arguments: '{"step":1}' }], {
          splitArgs: 2,
        }),
      },
      { kind: 'stream', chunks: textChunks(['Done ', 'now.'], { delayMs: 5 }) },
    );
    const service = await openAiService();
    const agent = new HttpAgent({
      url: `${service.baseUrl}/v1/runs`,
      headers: { Authorization: `Bearer ${tokenFor('olga', TEST_SECRET)}` },
      threadId: 'oa-client',
      initialMessages: [{ id: 'u1', role: 'user', content: 'go' }],
    });

    const result = await agent.runAgent({ runId: 'run-1' });

    expect(
      result.newMessages.some((m) => m.role === 'assistant' && m.content === 'Done now.'),
    ).toBe(true);
  });
});
