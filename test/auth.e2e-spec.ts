import { JwtService } from '@nestjs/jwt';
import { api, runInput, TEST_SECRET, tokenFor } from './support/http';
import { ServiceProcess } from './support/service-process';
import { startRun } from './support/sse';

const alice = tokenFor('alice');
const bob = tokenFor('bob');
const OWNED = 'thread-alice';

const badTokens: Array<[string, string | undefined]> = [
  ['no token', undefined],
  ['a token signed with another secret', tokenFor('alice', 'another-secret')],
  ['a garbage token', 'not-a-jwt'],
  [
    'a token without sub',
    new JwtService({ secret: TEST_SECRET }).sign({ name: 'alice' }, { algorithm: 'HS256' }),
  ],
  [
    'an expired token',
    new JwtService({ secret: TEST_SECRET }).sign({
      sub: 'alice',
      exp: Math.floor(Date.now() / 1000) - 60,
    }),
  ],
  [
    'an HS256 token without exp',
    new JwtService({ secret: TEST_SECRET }).sign({ sub: 'alice' }, { algorithm: 'HS256' }),
  ],
  [
    'an HS256 token living longer than AUTH_MAX_TOKEN_AGE_S',
    new JwtService({ secret: TEST_SECRET }).sign(
      { sub: 'alice' },
      { algorithm: 'HS256', expiresIn: '2d' },
    ),
  ],
  [
    'an iat ahead of the clock',
    new JwtService({ secret: TEST_SECRET }).sign(
      { sub: 'alice', iat: Math.floor(Date.now() / 1000) + 120 },
      { expiresIn: '1h' },
    ),
  ],
];

const endpoints: Array<[string, string, string, unknown?]> = [
  [
    'POST /v1/runs',
    'POST',
    '/v1/runs',
    runInput('thread-unauth', 'run-1', [{ id: 'unauth-u1', content: 'hi' }]),
  ],
  ['POST /v1/runs/{threadId}/cancel', 'POST', `/v1/runs/${OWNED}/cancel`],
  ['GET /v1/threads/{threadId}', 'GET', `/v1/threads/${OWNED}`],
  ['GET /v1/threads/{threadId}/messages', 'GET', `/v1/threads/${OWNED}/messages`],
];

describe('authentication and ownership', () => {
  let service: ServiceProcess;
  let owned: { thread: unknown; messages: unknown };
  const snapshot = async (threadId = OWNED) => ({
    thread: (await api(service.baseUrl, `/v1/threads/${threadId}`, { token: alice })).body,
    messages: (await api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token: alice }))
      .body,
  });

  beforeAll(async () => {
    service = await ServiceProcess.start({
      env: { DEMO_STEPS: '1', DEMO_REASONING_MS: '100', DEMO_TOOL_MS: '1500' },
    });
    const run = await startRun(
      service.baseUrl,
      alice,
      runInput(OWNED, 'run-1', [{ id: 'alice-u1', content: 'mine' }]),
    );
    expect(await run.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    owned = await snapshot();
  });
  afterAll(() => service?.stop());

  it.each([
    ['anything after the token', (token: string) => `Bearer ${token} junk`],
    ['another scheme', (token: string) => `Basic ${token}`],
  ])('answers 401 to an Authorization header with %s', async (_what, header) => {
    const response = await api(service.baseUrl, `/v1/threads/${OWNED}`, {
      headers: { authorization: header(alice) },
    });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
  });

  it('takes the scheme in any case', async () => {
    const response = await api(service.baseUrl, `/v1/threads/${OWNED}`, {
      headers: { authorization: `bearer ${alice}` },
    });
    expect(response.status).toBe(200);
  });

  describe.each(endpoints)('%s', (_name, method, path, body) => {
    it.each(badTokens)(
      'answers 401 UNAUTHORIZED to %s and writes nothing',
      async (_what, token) => {
        const response = await api(service.baseUrl, path, { method, token, body });
        expect(response.status).toBe(401);
        expect(response.body).toEqual({
          statusCode: 401,
          code: 'UNAUTHORIZED',
          message: expect.any(String),
        });
        expect(
          (await api(service.baseUrl, '/v1/threads/thread-unauth', { token: alice })).status,
        ).toBe(404);
        expect(await snapshot()).toEqual(owned);
      },
    );
  });

  it.each(['/health/live', '/health/ready'])('serves %s without a token', async (path) => {
    expect((await api(service.baseUrl, path)).status).toBe(200);
  });

  it.each([
    ['GET', `/v1/threads/${OWNED}`],
    ['GET', `/v1/threads/${OWNED}/messages`],
    ['POST', `/v1/runs/${OWNED}/cancel`],
    ['POST', `/v1/runs/${OWNED}/cancel?runId=run-1&waitMs=100`],
  ])("answers 403 THREAD_FORBIDDEN to %s %s on another user's thread", async (method, path) => {
    const response = await api(service.baseUrl, path, { method, token: bob });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      statusCode: 403,
      code: 'THREAD_FORBIDDEN',
      message: expect.any(String),
    });
    expect(await snapshot()).toEqual(owned);
  });

  it("answers 403 THREAD_FORBIDDEN to a run on another user's thread and adds none of its messages", async () => {
    const response = await api(service.baseUrl, '/v1/runs', {
      method: 'POST',
      token: bob,
      body: runInput(OWNED, 'run-bob', [{ id: 'bob-u1', content: 'let me in' }]),
    });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ statusCode: 403, code: 'THREAD_FORBIDDEN' });
    expect(await snapshot()).toEqual(owned);
  });

  it("refuses another user's cancel of an active run with 403 and the run goes on to complete", async () => {
    const run = await startRun(
      service.baseUrl,
      alice,
      runInput('thread-alice-busy', 'run-1', [{ id: 'busy-u1', content: 'x' }]),
    );
    await run.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the tool call');
    const response = await api(service.baseUrl, '/v1/runs/thread-alice-busy/cancel', {
      method: 'POST',
      token: bob,
    });
    expect(response.status).toBe(403);
    expect(await run.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
  });

  it.each([
    ['GET', '/v1/threads/thread-unknown'],
    ['GET', '/v1/threads/thread-unknown/messages'],
    ['POST', '/v1/runs/thread-unknown/cancel'],
    ['POST', '/v1/runs/thread-unknown/cancel?waitMs=100'],
  ])(
    'answers 404 THREAD_NOT_FOUND to %s %s for an unknown thread and does not create it',
    async (method, path) => {
      const response = await api(service.baseUrl, path, { method, token: alice });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        statusCode: 404,
        code: 'THREAD_NOT_FOUND',
        message: expect.any(String),
      });
      expect(
        (await api(service.baseUrl, '/v1/threads/thread-unknown', { token: alice })).status,
      ).toBe(404);
    },
  );

  it('answers 404 RUN_NOT_FOUND to a cancel naming a run the thread does not have', async () => {
    const response = await api(service.baseUrl, `/v1/runs/${OWNED}/cancel?runId=run-unknown`, {
      method: 'POST',
      token: alice,
    });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ statusCode: 404, code: 'RUN_NOT_FOUND' });
    expect(await snapshot()).toEqual(owned);
  });

  it('answers 409 RUN_IN_PROGRESS to a second run on a thread with an active run and stores none of its messages', async () => {
    const first = await startRun(
      service.baseUrl,
      alice,
      runInput('thread-busy', 'run-1', [{ id: 'first-u1', content: 'x' }]),
    );
    await first.waitForEvent((e) => e.type === 'TOOL_CALL_START', 'the tool call');
    const second = await api(service.baseUrl, '/v1/runs', {
      method: 'POST',
      token: alice,
      body: runInput('thread-busy', 'run-2', [
        { id: 'first-u1', content: 'x' },
        { id: 'second-u2', content: 'y' },
      ]),
    });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      statusCode: 409,
      code: 'RUN_IN_PROGRESS',
      message: expect.any(String),
    });

    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    const after = await snapshot('thread-busy');
    expect(after.thread).toMatchObject({
      status: 'idle',
      lastRun: { runId: 'run-1', status: 'completed' },
    });
    expect(
      (after.messages as { messages: Array<{ id: string }> }).messages.map((m) => m.id),
    ).not.toContain('second-u2');
  });

  it('admits one of two simultaneous first runs on a new thread and answers the other 409 RUN_IN_PROGRESS', async () => {
    const [a, b] = await Promise.all(
      ['race-a', 'race-b'].map((id) =>
        startRun(
          service.baseUrl,
          alice,
          runInput('thread-race', `run-${id}`, [{ id, content: id }]),
        ),
      ),
    );
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const [winner, loser] = a.status === 200 ? [a, b] : [b, a];
    expect(loser.error).toMatchObject({ statusCode: 409, code: 'RUN_IN_PROGRESS' });
    expect(await winner.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    const users = (await snapshot('thread-race')).messages as {
      messages: Array<{ id: string; role: string }>;
    };
    expect(users.messages.filter((m) => m.role === 'user')).toHaveLength(1);
  });
});
