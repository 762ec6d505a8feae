import { gzipSync } from 'node:zlib';
import { JwtService } from '@nestjs/jwt';
import { freePort } from '../tools/local-services';
import { runInput, TEST_SECRET, tokenFor } from './support/http';
import { signingKey, signJwt, tokenWith } from './support/jwks-server';
import { rawRequest, trickledRequest, type RawResponse } from './support/raw-http';
import { ServiceProcess } from './support/service-process';
import { startRun } from './support/sse';
import { StoreRows } from './support/store-rows';
import { waitFor } from './support/wait-for';

/**
 * Requests an attacker would send, one row each, against one running service: each is refused
 * with its status and code, writes nothing to the store (read directly), leaves no secret in
 * the process's log, and leaves the service healthy; a valid run works at the end.
 */

const USER = 'mallory';
const MAX_TOKEN_AGE_S = 3600;
const now = () => Math.floor(Date.now() / 1000);
const hs = new JwtService({ secret: TEST_SECRET });
const rsa = signingKey('RS256');

const valid = tokenFor(USER);
const tokens = {
  valid,
  withoutExp: hs.sign({ sub: USER }, { algorithm: 'HS256' }),
  tooLongLived: hs.sign({ sub: USER }, { algorithm: 'HS256', expiresIn: MAX_TOKEN_AGE_S * 2 }),
  issuedInFuture: hs.sign({ sub: USER, iat: now() + 120 }, { algorithm: 'HS256', expiresIn: 600 }),
  crit: signJwt({ alg: 'HS256', typ: 'JWT', crit: ['exp'] }, { sub: USER, iat: now(), exp: now() + 600 }, { secret: TEST_SECRET }),
  algNone: signJwt({ alg: 'none', typ: 'JWT' }, { sub: USER, iat: now(), exp: now() + 600 }),
  algorithmConfusion: signJwt(
    { alg: 'HS256', typ: 'JWT', kid: rsa.kid },
    { sub: USER, iat: now(), exp: now() + 600 },
    { secret: rsa.publicKey.export({ type: 'spki', format: 'pem' }) },
  ),
  expired: hs.sign({ sub: USER, exp: now() - 60 }),
  otherSecret: tokenFor(USER, 'another-secret'),
  rs256WithoutJwks: tokenWith(rsa, { sub: USER, iat: now(), exp: now() + 600 }),
};
/** Strings that must never reach the log. */
const SECRETS = [TEST_SECRET, ...Object.values(tokens)];

const JSON_TYPE = { 'content-type': 'application/json' };
const auth = (token: string, scheme = 'Bearer') => ({ authorization: `${scheme} ${token}` });
const runBody = (threadId: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ...runInput(threadId, 'run-1', [{ id: 'u1', content: 'hi' }]), ...extra });

interface Target {
  api: ServiceProcess;
  dev: ServiceProcess;
  metricsUrl: string;
}

interface Row {
  /** What the attacker sends. */
  name: string;
  send: (target: Target) => Promise<RawResponse>;
  status: number;
  /** The error code of the body; none for a success or a bare answer. */
  code?: string;
  /** Text the error message names (the field). */
  names?: string;
  /** More to check of the answer. */
  check?: (response: RawResponse) => void;
  /** The service without AUTH_JWT_SECRET (it has a dev token); the table's service otherwise. */
  onDev?: boolean;
}

const post =
  (token: string | undefined, body: string | Buffer, headers: Record<string, string> = {}) =>
  (target: Target) =>
    rawRequest(target.api.baseUrl, { method: 'POST', path: '/v1/runs', headers: { ...JSON_TYPE, ...(token ? auth(token) : {}), ...headers }, body });
const get =
  (path: string, headers: Record<string, string> = {}) =>
  (target: Target) =>
    rawRequest(target.api.baseUrl, { path, headers });
const devToken = (headers: Record<string, string>) => (target: Target) =>
  rawRequest(target.dev.baseUrl, { path: '/console/dev-token', headers: { host: 'localhost', ...headers } });

/** A trickled run request: headers at once, then a byte of its body every 200 ms. */
const trickle = async (target: Target): Promise<RawResponse> => {
  const head = `POST /v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tokens.valid}\r\nContent-Type: application/json\r\n`;
  const { status, text } = await trickledRequest(target.api.baseUrl, head, { declaredBytes: 100_000, everyMs: 200, deadlineMs: 20_000 });
  return { status, headers: {}, body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) };
};

const tokenRows: Array<[string, string, string?]> = [
  ['an HS256 token without exp', tokens.withoutExp],
  ['an HS256 token living longer than AUTH_MAX_TOKEN_AGE_S', tokens.tooLongLived],
  ['a token whose iat is ahead of the clock', tokens.issuedInFuture],
  ['a token with a crit header', tokens.crit],
  ['an alg none token', tokens.algNone],
  ['an HS256 token signed with an RSA public key (algorithm confusion)', tokens.algorithmConfusion],
  ['an expired token', tokens.expired],
  ['a token signed with another secret', tokens.otherSecret],
  ['an RS256 token while no JWKS is configured', tokens.rs256WithoutJwks],
  ['a garbage token', 'not-a-jwt'],
];

const rows: Row[] = [
  ...['x-forwarded-for: 8.8.8.8', 'x-forwarded-host: localhost', 'forwarded: for=8.8.8.8', 'via: 1.1 nginx', 'x-real-ip: 8.8.8.8'].map((header): Row => {
    const [name, value] = header.split(': ');
    return {
      name: `the dev token to a local request through a proxy (${name})`,
      onDev: true,
      send: devToken({ [name]: value }),
      status: 404,
      code: 'NO_DEV_TOKEN',
    };
  }),
  { name: 'a valid token in the query string', send: get(`/v1/threads?access_token=${tokens.valid}`), status: 401, code: 'UNAUTHORIZED' },
  {
    name: 'a token in the query string of a run',
    send: (t) =>
      rawRequest(t.api.baseUrl, {
        method: 'POST',
        path: `/v1/runs?token=${tokens.valid}&code=${TEST_SECRET}`,
        headers: JSON_TYPE,
        body: runBody('hostile-query'),
      }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  ...tokenRows.map(([name, token]): Row => ({ name, send: post(token, runBody('hostile-token')), status: 401, code: 'UNAUTHORIZED' })),
  {
    name: 'a valid token followed by junk',
    send: post(undefined, runBody('hostile-junk'), { authorization: `Bearer ${tokens.valid} junk` }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  { name: 'a valid token under the Basic scheme', send: get('/v1/threads', auth(tokens.valid, 'Basic')), status: 401, code: 'UNAUTHORIZED' },
  { name: 'the scheme in lower case (accepted)', send: get('/v1/threads', auth(tokens.valid, 'bearer')), status: 200 },
  {
    name: 'Content-Encoding: compress',
    send: post(valid, runBody('hostile-enc'), { 'content-encoding': 'compress' }),
    status: 415,
    code: 'UNSUPPORTED_CONTENT_ENCODING',
  },
  {
    name: 'Content-Encoding: gzip, gzip',
    send: post(valid, gzipSync(gzipSync(runBody('hostile-enc'))), { 'content-encoding': 'gzip, gzip' }),
    status: 415,
    code: 'UNSUPPORTED_CONTENT_ENCODING',
  },
  {
    name: 'Content-Encoding: gzip on a plain body',
    send: post(valid, runBody('hostile-enc'), { 'content-encoding': 'gzip' }),
    status: 400,
    code: 'INVALID_BODY',
    names: 'body',
  },
  {
    name: 'a truncated gzip body',
    send: post(valid, gzipSync(runBody('hostile-enc')).subarray(0, 20), { 'content-encoding': 'gzip' }),
    status: 400,
    code: 'INVALID_BODY',
  },
  { name: 'Content-Encoding: br on a plain body', send: post(valid, runBody('hostile-enc'), { 'content-encoding': 'br' }), status: 400, code: 'INVALID_BODY' },
  {
    name: 'a gzip body that inflates past the body limit',
    send: post(valid, gzipSync(Buffer.alloc(3_000_000, 0x20)), { 'content-encoding': 'gzip' }),
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  { name: 'a body trickled slower than HTTP_REQUEST_TIMEOUT_MS', send: trickle, status: 408, code: 'REQUEST_TIMEOUT' },
  {
    name: 'a body over 1 MB',
    send: post(valid, runBody('hostile-big', { messages: [{ id: 'u1', role: 'user', content: 'x'.repeat(1_100_000) }] })),
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  { name: 'invalid JSON', send: post(valid, '{"threadId":"hostile-json","messages":['), status: 400, code: 'INVALID_JSON' },
  {
    name: 'a message content of a wrong type',
    send: post(valid, runBody('hostile-type', { messages: [{ id: 'u1', role: 'user', content: 42 }] })),
    status: 422,
    code: 'VALIDATION_FAILED',
    names: 'messages[0].content',
  },
  {
    name: 'messages that are not an array',
    send: post(valid, runBody('hostile-type', { messages: 'hello' })),
    status: 422,
    code: 'VALIDATION_FAILED',
    names: 'messages',
  },
  {
    name: 'more new messages than MAX_MESSAGES_PER_REQUEST',
    send: post(valid, runBody('hostile-many', { messages: Array.from({ length: 6 }, (_, i) => ({ id: `m${i}`, role: 'user', content: 'spam' })) })),
    status: 429,
    code: 'TOO_MANY_MESSAGES',
    names: 'messages',
  },
  { name: 'the threadId . in the body', send: post(valid, runBody('.')), status: 422, code: 'VALIDATION_FAILED', names: 'threadId' },
  { name: 'the threadId .. in the body', send: post(valid, runBody('..')), status: 422, code: 'VALIDATION_FAILED', names: 'threadId' },
  { name: 'a threadId with a slash in the body', send: post(valid, runBody('a/../b')), status: 422, code: 'VALIDATION_FAILED', names: 'threadId' },
  { name: 'the thread .. in the path', send: get('/v1/threads/..', auth(valid)), status: 400, code: 'INVALID_ID', names: 'threadId' },
  { name: 'the thread . in the path', send: get('/v1/threads/./messages', auth(valid)), status: 400, code: 'INVALID_ID', names: 'threadId' },
  { name: 'the thread %2E%2E in the path', send: get('/v1/threads/%2E%2E', auth(valid)), status: 400, code: 'INVALID_ID', names: 'threadId' },
  {
    name: 'a cancel of the thread ..',
    send: (t) => rawRequest(t.api.baseUrl, { method: 'POST', path: '/v1/runs/../cancel', headers: auth(valid) }),
    status: 400,
    code: 'INVALID_ID',
    names: 'threadId',
  },
  {
    name: 'a probe (no X-Powered-By)',
    send: get('/health/live'),
    status: 200,
    check: (response) => expect(response.headers['x-powered-by']).toBeUndefined(),
  },
  {
    name: 'an unauthenticated request (no X-Powered-By)',
    send: get('/v1/threads'),
    status: 401,
    code: 'UNAUTHORIZED',
    check: (response) => expect(response.headers['x-powered-by']).toBeUndefined(),
  },
  { name: 'GET /metrics on the API port while METRICS_PORT is set', send: get('/metrics'), status: 404, code: 'NOT_FOUND' },
];

describe('hostile input', () => {
  let target: Target;
  let stores: { api: StoreRows; dev: StoreRows };

  beforeAll(async () => {
    const metricsPort = await freePort();
    const [api, dev] = await Promise.all([
      ServiceProcess.start({
        env: {
          METRICS_PORT: String(metricsPort),
          AUTH_MAX_TOKEN_AGE_S: String(MAX_TOKEN_AGE_S),
          HTTP_HEADERS_TIMEOUT_MS: '1000',
          HTTP_REQUEST_TIMEOUT_MS: '2000',
          MAX_MESSAGES_PER_REQUEST: '5',
          DEMO_STEPS: '2',
          DEMO_TOOL_MS: '1200',
        },
      }),
      ServiceProcess.start({ env: { AUTH_JWT_SECRET: '' } }),
    ]);
    target = { api, dev, metricsUrl: `http://127.0.0.1:${metricsPort}` };
    const first = await startRun(api.baseUrl, valid, runInput('hostile-own', 'run-1', [{ id: 'own-u1', content: 'mine' }]));
    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    stores = { api: await StoreRows.open(api), dev: await StoreRows.open(dev) };
  });
  afterAll(async () => {
    await Promise.all([stores?.api.close(), stores?.dev.close()]);
    await Promise.all([target?.api.stop(), target?.dev.stop()]);
  });

  it.each(rows.map((row) => [row.name, row] as const))('answers %s as it must, writes nothing, logs no secret and stays healthy', async (_name, row) => {
    const service = row.onDev ? target.dev : target.api;
    const store = row.onDev ? stores.dev : stores.api;
    const before = await store.counts();

    const response = await row.send(target);

    expect(response.status).toBe(row.status);
    if (row.code) expect(response.body).toMatchObject({ statusCode: row.status, code: row.code, message: expect.any(String) });
    if (row.names) expect(response.body.message).toContain(row.names);
    row.check?.(response);
    expect(await store.counts()).toEqual(before);
    for (const secret of SECRETS) expect(service.logs).not.toContain(secret);
    for (const probe of ['/health/live', '/health/ready']) expect((await rawRequest(service.baseUrl, { path: probe })).status).toBe(200);
  });

  it('logs a body the client abandons once, at warn, without a stack, and writes nothing', async () => {
    const before = await stores.api.counts();
    const lines = () => target.api.logs.split('\n').filter((line) => line.includes('"request body aborted"'));
    const seen = lines().length;
    const head = `POST /v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tokens.valid}\r\nContent-Type: application/json\r\n`;
    expect((await trickledRequest(target.api.baseUrl, head, { declaredBytes: 1000, everyMs: 50, abortAfterMs: 300 })).status).toBe(0);
    await waitFor(() => lines().length > seen, 'the aborted body to be logged');
    const line = JSON.parse(lines()[seen]) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'warn', method: 'POST', url: '/v1/runs' });
    expect(JSON.stringify(line)).not.toMatch(/stack|\bat .*\(/);
    expect(await stores.api.counts()).toEqual(before);
  });

  it('serves the dev token to a direct local request, so the proxy rows above prove the refusal', async () => {
    const response = await devToken({})(target);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token: expect.any(String), userId: 'dev-user' });
  });

  it('serves GET /metrics on METRICS_PORT', async () => {
    const response = await rawRequest(target.metricsUrl, { path: '/metrics' });
    expect(response.status).toBe(200);
    expect(response.body).toContain('# TYPE agent_runs_in_flight gauge');
  });

  it('wrote no error line and no stack for any of it', () => {
    const lines = target.api.logs.split('\n').filter((line) => line.startsWith('{'));
    expect(lines.filter((line) => line.includes('"level":"error"') || line.includes('"level":"fatal"'))).toEqual([]);
    expect(lines.filter((line) => /"stack"|\\n\s+at /.test(line))).toEqual([]);
  });

  it('still serves a valid run to completion, its event stream outliving HTTP_REQUEST_TIMEOUT_MS', async () => {
    const before = await stores.api.counts();
    const run = await startRun(target.api.baseUrl, valid, runInput('hostile-after', 'run-1', [{ id: 'after-u1', content: 'still here' }]));
    // DEMO_STEPS 2 with DEMO_TOOL_MS 1200: the stream is open past the 2 s request timeout before its end.
    expect(await run.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    const after = await stores.api.counts();
    expect(after.agent_threads).toBe(before.agent_threads + 1);
    expect(after.agent_runs).toBe(before.agent_runs + 1);
    for (const secret of SECRETS) expect(target.api.logs).not.toContain(secret);
  });

  it('exits 0 on SIGTERM with its metrics port open, leaving no handle behind', async () => {
    target.api.kill('SIGTERM');
    expect(await target.api.waitForExit(30_000)).toMatchObject({ code: 0 });
  });
});
