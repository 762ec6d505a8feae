import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { startRun, type RunStream } from './support/sse';

const services = new ServiceGroup();
/** Runs that stay in their first reasoning call, so each one holds a slot until canceled. */
let slow: ServiceProcess;
/** Short runs, small message limits and a low request rate. */
let quick: ServiceProcess;

beforeAll(async () => {
  [slow, quick] = await Promise.all([
    services.start({
      env: { MAX_RUNS_PER_USER: '2', DEMO_REASONING_MS: '60000', SHUTDOWN_DRAIN_TIMEOUT_MS: '0' },
    }),
    services.start({
      env: {
        MAX_MESSAGES_PER_REQUEST: '3',
        MAX_HISTORY_MESSAGES: '8',
        MAX_THREAD_BYTES: '2000',
        RATE_LIMIT_PER_MINUTE: '12',
        DEMO_STEPS: '1',
        DEMO_REASONING_MS: '50',
        DEMO_TOOL_MS: '50',
      },
    }),
  ]);
});
afterAll(() => services.stopAll());

const messages = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i + 1}`,
    content: `message ${i + 1}`,
  }));

/** The thread as the API shows it to `token`: its status code (404 when it was never written) and message count. */
async function threadState(
  service: ServiceProcess,
  token: string,
  threadId: string,
): Promise<{ status: number; messageCount?: number }> {
  const { status, body } = await api(service.baseUrl, `/v1/threads/${threadId}`, { token });
  return { status, messageCount: body?.messageCount };
}

/** The refusal of a run request: status, `Retry-After` and body. */
const refusal = (stream: RunStream) => ({
  status: stream.status,
  retryAfter: stream.headers.get('retry-after'),
  body: stream.error,
});

describe('MAX_RUNS_PER_USER', () => {
  const runner = tokenFor('limits-runner');
  const held: RunStream[] = [];

  beforeAll(async () => {
    for (const threadId of ['held-1', 'held-2']) {
      const stream = await startRun(
        slow.baseUrl,
        runner,
        runInput(threadId, 'run-1', messages(1, threadId)),
      );
      await stream.waitForEvent((e) => e.type === 'RUN_STARTED', `the run on ${threadId} to start`);
      held.push(stream);
    }
  });

  it("refuses a run past the user's limit with 429 TOO_MANY_RUNS and Retry-After, writing nothing", async () => {
    const third = await startRun(
      slow.baseUrl,
      runner,
      runInput('held-3', 'run-1', messages(1, 'held-3')),
    );

    expect(refusal(third)).toEqual({
      status: 429,
      retryAfter: '5',
      body: {
        statusCode: 429,
        code: 'TOO_MANY_RUNS',
        message: expect.stringContaining('2 active runs'),
      },
    });
    expect(await threadState(slow, runner, 'held-3')).toEqual({ status: 404 });
    const { body } = await api(slow.baseUrl, '/v1/threads', { token: runner });
    expect(body.threads.map((t: { threadId: string }) => t.threadId).sort()).toEqual([
      'held-1',
      'held-2',
    ]);
  });

  it('admits another user meanwhile', async () => {
    const other = await startRun(
      slow.baseUrl,
      tokenFor('limits-other'),
      runInput('other-1', 'run-1', messages(1, 'other-1')),
    );

    expect(other.status).toBe(200);
    await other.waitForEvent((e) => e.type === 'RUN_STARTED', 'the other user’s run to start');
    other.cut();
  });

  it("admits the user's next run once one of the runs has ended", async () => {
    const cancel = await api(slow.baseUrl, '/v1/runs/held-1/cancel?waitMs=10000', {
      method: 'POST',
      token: runner,
    });
    expect(cancel.body).toMatchObject({ stopped: true });

    const next = await startRun(
      slow.baseUrl,
      runner,
      runInput('held-3', 'run-1', messages(1, 'held-3')),
    );

    expect(next.status).toBe(200);
    await next.waitForEvent((e) => e.type === 'RUN_STARTED', 'the next run to start');
    for (const stream of [...held, next]) stream.cut();
  });
});

describe('MAX_MESSAGES_PER_REQUEST and MAX_HISTORY_MESSAGES', () => {
  const writer = tokenFor('limits-writer');

  it('refuses a request adding more new messages than allowed with 429 TOO_MANY_MESSAGES naming messages, writing nothing', async () => {
    const stream = await startRun(
      quick.baseUrl,
      writer,
      runInput('too-many', 'run-1', messages(4, 'too-many')),
    );

    expect(refusal(stream)).toEqual({
      status: 429,
      retryAfter: '3600',
      body: {
        statusCode: 429,
        code: 'TOO_MANY_MESSAGES',
        message: expect.stringMatching(/^messages: .*4 new messages.*3 allowed/),
      },
    });
    expect(await threadState(quick, writer, 'too-many')).toEqual({ status: 404 });
  });

  it('counts only the messages the thread does not hold: a resend of the whole conversation with one new message is admitted', async () => {
    const first = await startRun(
      quick.baseUrl,
      writer,
      runInput('resent', 'run-1', messages(1, 'resent')),
    );
    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    const { body } = await api(quick.baseUrl, '/v1/threads/resent/messages', { token: writer });
    const conversation = (body.messages as Array<Record<string, unknown>>).map(
      ({ id, role, content, toolCalls, toolCallId }) => ({
        id,
        role,
        ...(content !== null ? { content } : {}),
        ...(toolCalls ? { toolCalls } : {}),
        ...(toolCallId ? { toolCallId } : {}),
      }),
    );
    expect(conversation.length).toBeGreaterThan(3);

    const second = await startRun(quick.baseUrl, writer, {
      ...runInput('resent', 'run-2', []),
      messages: [...conversation, { id: 'resent-new', role: 'user', content: 'more' }],
    });

    expect(second.status).toBe(200);
    expect(await second.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
  });

  it('refuses a new message once the stored history would pass its limit with 429 HISTORY_LIMIT_REACHED naming messages, writing nothing', async () => {
    const before = await threadState(quick, writer, 'resent');
    expect(before.messageCount).toBeGreaterThanOrEqual(8);

    const stream = await startRun(
      quick.baseUrl,
      writer,
      runInput('resent', 'run-3', [{ id: 'resent-past-limit', content: 'one more' }]),
    );

    expect(refusal(stream)).toEqual({
      status: 429,
      retryAfter: '3600',
      body: {
        statusCode: 429,
        code: 'HISTORY_LIMIT_REACHED',
        message: expect.stringMatching(
          /^messages: thread resent holds \d+ messages.*limit of 8.*new thread/,
        ),
      },
    });
    expect(await threadState(quick, writer, 'resent')).toEqual(before);
  });

  it('still answers bad input with 422 naming the field, before any limit', async () => {
    const input = runInput('bad-input', 'run-1', messages(4, 'bad'));
    input.messages[2] = { ...input.messages[2], id: '' };

    const stream = await startRun(quick.baseUrl, writer, input);

    expect(stream.status).toBe(422);
    expect(stream.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/^messages\[2\]\.id/),
    });
  });
});

describe('MAX_THREAD_BYTES', () => {
  const sizer = tokenFor('limits-sizer');

  it('refuses a new thread whose first message is past the limit with 413 THREAD_TOO_LARGE, writing nothing', async () => {
    const stream = await startRun(
      quick.baseUrl,
      sizer,
      runInput('too-big', 'run-1', [{ id: 'too-big-1', content: 'é'.repeat(1001) }]),
    );

    expect(refusal(stream)).toEqual({
      status: 413,
      retryAfter: null,
      body: {
        statusCode: 413,
        code: 'THREAD_TOO_LARGE',
        message: expect.stringMatching(
          /^messages: thread too-big holds 0 bytes and the request adds 2002.*limit of 2000 bytes/,
        ),
      },
    });
    expect(await threadState(quick, sizer, 'too-big')).toEqual({ status: 404 });
  });

  it('refuses a message that would take a stored thread past the limit with 413 THREAD_TOO_LARGE, writing nothing', async () => {
    const first = await startRun(
      quick.baseUrl,
      sizer,
      runInput('growing', 'run-1', [{ id: 'growing-1', content: 'x'.repeat(1500) }]),
    );
    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    const before = await threadState(quick, sizer, 'growing');

    const stream = await startRun(
      quick.baseUrl,
      sizer,
      runInput('growing', 'run-2', [{ id: 'growing-2', content: 'y'.repeat(600) }]),
    );

    expect(refusal(stream)).toMatchObject({
      status: 413,
      body: {
        code: 'THREAD_TOO_LARGE',
        message: expect.stringMatching(/thread growing holds \d+ bytes/),
      },
    });
    expect(await threadState(quick, sizer, 'growing')).toEqual(before);
  });
});

describe('GET /v1/threads/{threadId}/messages pages', () => {
  const reader = tokenFor('limits-reader');

  it('covers every message once, in order, through cursors that end in nextCursor null', async () => {
    const run = await startRun(
      quick.baseUrl,
      reader,
      runInput('paged', 'run-1', messages(2, 'paged')),
    );
    expect(await run.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    const whole = (await api(quick.baseUrl, '/v1/threads/paged/messages', { token: reader })).body;
    expect(whole.nextCursor).toBeNull();
    expect(whole.messages.length).toBeGreaterThan(3);

    const paged: unknown[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? 'limit=2' : `limit=2&cursor=${cursor}`;
      const { status, body } = await api(quick.baseUrl, `/v1/threads/paged/messages?${query}`, {
        token: reader,
      });
      expect(status).toBe(200);
      expect(body.messages.length).toBeLessThanOrEqual(2);
      paged.push(...body.messages);
      cursor = body.nextCursor;
    } while (cursor !== null);

    expect(paged).toEqual(whole.messages);
  });

  it.each([
    ['limit=0', 'INVALID_LIMIT', /^limit: .*1 to 1000/],
    ['limit=1001', 'INVALID_LIMIT', /^limit: .*1 to 1000/],
    ['cursor=not-a-cursor', 'INVALID_CURSOR', /^cursor: /],
  ])('answers %s with 400 %s naming the field', async (query, code, message) => {
    const { status, body } = await api(quick.baseUrl, `/v1/threads/paged/messages?${query}`, {
      token: reader,
    });

    expect({ status, body }).toEqual({
      status: 400,
      body: { statusCode: 400, code, message: expect.stringMatching(message) },
    });
  });
});

describe('RATE_LIMIT_PER_MINUTE', () => {
  const busy = tokenFor('limits-busy');

  it('answers 429 RATE_LIMITED with Retry-After once a user passes the limit, across routes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await api(quick.baseUrl, i % 2 ? '/v1/threads' : '/v1/threads/none', { token: busy }))
          .status,
      );

    const over = await api(quick.baseUrl, '/v1/threads', { token: busy });

    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: expect.stringContaining('retry in'),
    });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect([...over.headers.keys()].filter((name) => name.startsWith('retry-after-'))).toEqual([]);
  });

  it('refuses a run request over the limit without writing it', async () => {
    const stream = await startRun(
      quick.baseUrl,
      busy,
      runInput('rate-limited', 'run-1', messages(1, 'rate-limited')),
    );

    expect(stream.status).toBe(429);
    expect(stream.error).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await threadState(quick, tokenFor('limits-busy-reader'), 'rate-limited')).status).toBe(
      404,
    );
  });

  it('leaves another user, the probes and /metrics unlimited', async () => {
    const paths = ['/health/live', '/health/ready', '/metrics'];
    const publicStatuses = await Promise.all(
      Array.from({ length: 15 }, (_, i) => api(quick.baseUrl, paths[i % 3]).then((r) => r.status)),
    );

    expect(publicStatuses.filter((s) => s !== 200)).toEqual([]);
    expect(
      (await api(quick.baseUrl, '/v1/threads', { token: tokenFor('limits-calm') })).status,
    ).toBe(200);
  });
});
