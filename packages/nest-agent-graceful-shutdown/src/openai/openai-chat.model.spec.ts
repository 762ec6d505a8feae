import {
  completionChunk,
  FakeOpenAiServer,
  textChunks,
  toolCallChunks,
  waitFor,
} from 'dev-services';
import { CallAbortedError } from '../agent/abortable.js';
import type { AgentMessage } from '../agent/agent-message.js';
import type {
  ModelCallContext,
  ModelRequest,
  ModelStreamSink,
} from '../agent/agent-model.interface.js';
import type { ToolDefinition } from '../agent/agent-tool.interface.js';
import { ModelCallError } from '../errors/model-call.error.js';
import { OpenAiChatModel, type OpenAiChatModelOptions } from './openai-chat.model.js';

const HELLO: ModelRequest = { messages: [{ id: 'm1', role: 'user', content: 'hello' }], tools: [] };
const WEATHER: ToolDefinition = {
  name: 'weather',
  description: 'current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** A sink that writes what it hears as lines like `text:Hel`, `start:call_1:weather`, `args:call_1:{"ci`. */
function recordingSink(): { sink: ModelStreamSink; events: string[] } {
  const events: string[] = [];
  return {
    events,
    sink: {
      text: (delta) => events.push(`text:${delta}`),
      toolCallStart: ({ id, name }) => events.push(`start:${id}:${name}`),
      toolCallArgs: (id, delta) => events.push(`args:${id}:${delta}`),
      toolCallEnd: (id) => events.push(`end:${id}`),
    },
  };
}

function contextWith(
  sink?: ModelStreamSink,
  signal: AbortSignal = new AbortController().signal,
): ModelCallContext {
  return { threadId: 'thread-1', runId: 'run-1', signal, stream: sink };
}

/** The error a call rejected with; fails the test when it resolved. */
async function failureOf(call: Promise<unknown>): Promise<any> {
  return call.then(
    (value) => {
      throw new Error(`expected the call to fail, it resolved with ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('OpenAiChatModel', () => {
  let server: FakeOpenAiServer;

  beforeEach(async () => {
    server = await FakeOpenAiServer.start();
  });

  afterEach(async () => {
    await server.close();
  });

  function modelWith(options: Partial<OpenAiChatModelOptions> = {}): OpenAiChatModel {
    return new OpenAiChatModel({
      baseUrl: server.baseUrl,
      apiKey: 'test-key',
      model: 'test-model',
      ...options,
    });
  }

  it('is named after the model', () => {
    expect(modelWith().name).toBe('openai:test-model');
  });

  it('streams text deltas to the sink in order and returns the full text with its usage', async () => {
    server.enqueue({
      kind: 'stream',
      chunks: textChunks(['Hel', 'lo, ', 'world'], {
        usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
      }),
    });
    const { sink, events } = recordingSink();

    const response = await modelWith().generate(HELLO, contextWith(sink));

    expect(events).toEqual(['text:Hel', 'text:lo, ', 'text:world']);
    expect(response).toEqual({
      content: 'Hello, world',
      toolCalls: [],
      usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 },
    });
  });

  it('streams tool calls to the sink as start, argument pieces and end, and returns them complete', async () => {
    const calls = [
      { id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
      { id: 'call_2', name: 'weather', arguments: '{"city":"Oslo"}' },
    ];
    server.enqueue({ kind: 'stream', chunks: toolCallChunks(calls, { splitArgs: 3 }) });
    const { sink, events } = recordingSink();

    const response = await modelWith().generate({ ...HELLO, tools: [WEATHER] }, contextWith(sink));

    expect(events).toEqual([
      'start:call_1:weather',
      'args:call_1:{"city',
      'args:call_1:":"Par',
      'args:call_1:is"}',
      'start:call_2:weather',
      'args:call_2:{"cit',
      'args:call_2:y":"O',
      'args:call_2:slo"}',
      'end:call_1',
      'end:call_2',
    ]);
    expect(response).toEqual({ content: '', toolCalls: calls });
  });

  it('buffers argument pieces that arrive before the call id and name, and hands them over at the start', async () => {
    server.enqueue({
      kind: 'stream',
      chunks: [
        {
          data: completionChunk({
            tool_calls: [{ index: 0, function: { arguments: '{"city":' } }],
          }),
        },
        {
          data: completionChunk({
            tool_calls: [
              { index: 0, id: 'call_9', function: { name: 'weather', arguments: '"Rome"}' } },
            ],
          }),
        },
        { data: completionChunk({}, 'tool_calls') },
      ],
    });
    const { sink, events } = recordingSink();

    const response = await modelWith().generate(HELLO, contextWith(sink));

    expect(events).toEqual(['start:call_9:weather', 'args:call_9:{"city":"Rome"}', 'end:call_9']);
    expect(response.toolCalls).toEqual([
      { id: 'call_9', name: 'weather', arguments: '{"city":"Rome"}' },
    ]);
  });

  it('sends the model name, the tools and the history in the chat format, tool calls and results included', async () => {
    server.enqueue({ kind: 'stream', chunks: textChunks(['It is sunny.']) });
    const messages: AgentMessage[] = [
      { id: 'm0', role: 'system', content: 'Be brief.' },
      { id: 'm1', role: 'user', content: 'Weather in Paris?' },
      {
        id: 'm2',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' }],
      },
      { id: 'm3', role: 'tool', content: 'sunny', toolCallId: 'call_1' },
    ];

    await modelWith().generate({ messages, tools: [WEATHER] }, contextWith());

    const { body, headers } = server.requests[0];
    expect(headers.authorization).toBe('Bearer test-key');
    expect(body).toMatchObject({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: WEATHER }],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
    });
  });

  it('leaves the tools field out when the agent has no tools', async () => {
    server.enqueue({ kind: 'stream', chunks: textChunks(['hi']) });

    await modelWith().generate(HELLO, contextWith());

    expect(server.requests[0].body).not.toHaveProperty('tools');
  });

  it('sends temperature and max_tokens when they are configured', async () => {
    server.enqueue({ kind: 'stream', chunks: textChunks(['hi']) });

    await modelWith({ temperature: 0.2, maxTokens: 64 }).generate(HELLO, contextWith());

    expect(server.requests[0].body).toMatchObject({ temperature: 0.2, max_tokens: 64 });
  });

  it('rejects with CallAbortedError and closes the connection when the signal aborts mid-stream', async () => {
    server.enqueue({
      kind: 'stream',
      chunks: [
        { data: completionChunk({ role: 'assistant', content: 'first' }) },
        { delayMs: 60_000, data: completionChunk({ content: 'never sent' }) },
      ],
    });
    const { sink, events } = recordingSink();
    const controller = new AbortController();
    const call = modelWith().generate(HELLO, contextWith(sink, controller.signal));
    await waitFor(() => events.length > 0, 'the first text delta');

    controller.abort();

    expect(await failureOf(call)).toBeInstanceOf(CallAbortedError);
    await server.waitForClosedEarly(0);
    expect(events).toEqual(['text:first']);
  });

  it('rejects with CallAbortedError without sending a request when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();

    expect(
      await failureOf(modelWith().generate(HELLO, contextWith(undefined, controller.signal))),
    ).toBeInstanceOf(CallAbortedError);
    expect(server.requests).toHaveLength(0);
  });

  it('rejects with CallAbortedError, not a ModelCallError, when the signal aborts while the server is retried', async () => {
    // Short, because the SDK's backoff timer runs on after the abort (it is not abortable).
    server.enqueue({ kind: 'error', status: 503, headers: { 'retry-after-ms': '500' } });
    const controller = new AbortController();
    const call = modelWith().generate(HELLO, contextWith(undefined, controller.signal));
    await server.waitForRequests(1);

    controller.abort();

    expect(await failureOf(call)).toBeInstanceOf(CallAbortedError);
    // It settled at once, not after the backoff and a second attempt.
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 429 after the delay the server asks for and then succeeds', async () => {
    server.enqueue(
      {
        kind: 'error',
        status: 429,
        headers: { 'retry-after-ms': '10' },
        body: { error: { message: 'slow down' } },
      },
      { kind: 'stream', chunks: textChunks(['ok']) },
    );

    const response = await modelWith().generate(HELLO, contextWith());

    expect(response.content).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('fails with MODEL_RATE_LIMITED when the server still answers 429 after the retries', async () => {
    server.enqueue(
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '10' } },
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '10' } },
    );

    const error = await failureOf(modelWith({ maxRetries: 1 }).generate(HELLO, contextWith()));

    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ code: 'MODEL_RATE_LIMITED', status: 429 });
  });

  it('fails with MODEL_UNAVAILABLE after maxRetries + 1 requests when the server keeps answering 500', async () => {
    server.enqueue(
      { kind: 'error', status: 500, headers: { 'retry-after-ms': '10' } },
      { kind: 'error', status: 500, headers: { 'retry-after-ms': '10' } },
    );

    const error = await failureOf(modelWith({ maxRetries: 1 }).generate(HELLO, contextWith()));

    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ code: 'MODEL_UNAVAILABLE', status: 500 });
    expect(server.requests).toHaveLength(2);
  });

  it('fails with MODEL_AUTH_FAILED on a 401, without retrying, and says to check OPENAI_API_KEY', async () => {
    server.enqueue({
      kind: 'error',
      status: 401,
      body: { error: { message: 'Incorrect API key provided' } },
    });

    const error = await failureOf(modelWith().generate(HELLO, contextWith()));

    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ code: 'MODEL_AUTH_FAILED', status: 401 });
    expect(error.message).toContain('Incorrect API key provided');
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(server.requests).toHaveLength(1);
  });

  it('fails with MODEL_AUTH_FAILED on a 403', async () => {
    server.enqueue({ kind: 'error', status: 403 });

    expect(await failureOf(modelWith().generate(HELLO, contextWith()))).toMatchObject({
      code: 'MODEL_AUTH_FAILED',
      status: 403,
    });
  });

  it('fails with MODEL_NOT_FOUND on a 404, without retrying, and says to check MODEL_NAME', async () => {
    server.enqueue({
      kind: 'error',
      status: 404,
      body: { error: { message: 'The model `test-model` does not exist' } },
    });

    const error = await failureOf(modelWith().generate(HELLO, contextWith()));

    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ code: 'MODEL_NOT_FOUND', status: 404 });
    expect(error.message).toContain('MODEL_NAME');
    expect(server.requests).toHaveLength(1);
  });

  it('fails with MODEL_REQUEST_REJECTED on a 400, without retrying', async () => {
    server.enqueue({
      kind: 'error',
      status: 400,
      body: { error: { message: 'tools are not supported' } },
    });

    const error = await failureOf(modelWith().generate(HELLO, contextWith()));

    expect(error).toMatchObject({ code: 'MODEL_REQUEST_REJECTED', status: 400 });
    expect(error.message).toContain('tools are not supported');
    expect(server.requests).toHaveLength(1);
  });

  it('fails with MODEL_BAD_RESPONSE when a stream chunk is not JSON', async () => {
    server.enqueue({
      kind: 'stream',
      chunks: [
        { data: completionChunk({ role: 'assistant', content: 'Hi' }) },
        { data: '{"choices": [ not json' },
      ],
    });

    const error = await failureOf(modelWith().generate(HELLO, contextWith()));

    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.code).toBe('MODEL_BAD_RESPONSE');
  });

  it('fails with MODEL_BAD_RESPONSE when a streamed tool call never gets an id', async () => {
    server.enqueue({
      kind: 'stream',
      chunks: [
        {
          data: completionChunk({
            tool_calls: [{ index: 0, function: { name: 'weather', arguments: '{}' } }],
          }),
        },
        { data: completionChunk({}, 'tool_calls') },
      ],
    });

    expect(await failureOf(modelWith().generate(HELLO, contextWith()))).toMatchObject({
      code: 'MODEL_BAD_RESPONSE',
    });
  });

  it('fails with MODEL_UNAVAILABLE when the server sends an error event mid-stream', async () => {
    server.enqueue({
      kind: 'stream',
      chunks: [
        { data: completionChunk({ content: 'Hi' }) },
        { data: { error: { message: 'overloaded' } } },
      ],
    });

    const error = await failureOf(modelWith().generate(HELLO, contextWith()));

    expect(error).toMatchObject({ code: 'MODEL_UNAVAILABLE' });
    expect(error.message).toContain('overloaded');
  });

  it('fails with MODEL_TIMEOUT when the server does not answer within timeoutMs', async () => {
    server.enqueue({
      kind: 'stream',
      chunks: [{ delayMs: 60_000, data: completionChunk({ content: 'too late' }) }],
    });

    const error = await failureOf(
      modelWith({ maxRetries: 0, timeoutMs: 300 }).generate(HELLO, contextWith()),
    );

    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.code).toBe('MODEL_TIMEOUT');
    await server.waitForClosedEarly(0);
  });

  it('fails with MODEL_TIMEOUT when a started stream stalls for longer than timeoutMs', async () => {
    server.enqueue({
      kind: 'stream',
      chunks: [
        { data: completionChunk({ role: 'assistant', content: 'Hi' }) },
        { delayMs: 60_000, data: completionChunk({ content: 'too late' }) },
      ],
    });

    const error = await failureOf(
      modelWith({ maxRetries: 0, timeoutMs: 300 }).generate(HELLO, contextWith()),
    );

    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.code).toBe('MODEL_TIMEOUT');
    await server.waitForClosedEarly(0);
  });

  it('fails with MODEL_UNREACHABLE when nothing listens at the base URL', async () => {
    const gone = await FakeOpenAiServer.start();
    await gone.close();

    const error = await failureOf(
      modelWith({ baseUrl: gone.baseUrl, maxRetries: 0 }).generate(HELLO, contextWith()),
    );

    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.code).toBe('MODEL_UNREACHABLE');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('lets an error thrown by the sink through unchanged', async () => {
    server.enqueue({ kind: 'stream', chunks: textChunks(['Hi']) });
    const broken = new Error('sink broke');
    const sink: ModelStreamSink = {
      ...recordingSink().sink,
      text: () => {
        throw broken;
      },
    };

    expect(await failureOf(modelWith().generate(HELLO, contextWith(sink)))).toBe(broken);
  });
});
