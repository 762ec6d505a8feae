import { gzipSync } from 'node:zlib';
import { tokens } from './forged-tokens';
import { runInput, TEST_SECRET, tokenFor } from './http';
import { rawRequest, trickledRequest, type RawResponse } from './raw-http';
import type { ServiceProcess } from './service-process';

/**
 * The requests of the hostile-input table (`test/hostile-input.e2e-spec.ts`): one row per case,
 * with the answer it must get. The service runs with `METRICS_PORT`, a 2 s
 * `HTTP_REQUEST_TIMEOUT_MS`, `MAX_MESSAGES_PER_REQUEST=5` and `MAX_THREAD_BYTES=200000`.
 */

const valid = tokens.valid;
const JSON_TYPE = { 'content-type': 'application/json' };
export const auth = (token: string, scheme = 'Bearer') => ({ authorization: `${scheme} ${token}` });
const runBody = (threadId: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ...runInput(threadId, 'run-1', [{ id: 'u1', content: 'hi' }]), ...extra });

/** The services the rows are sent to. */
export interface Target {
  api: ServiceProcess;
  dev: ServiceProcess;
  metricsUrl: string;
}

/** One hostile request and the answer it must get. */
export interface HostileRow {
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

export const post =
  (token: string | undefined, body: string | Buffer, headers: Record<string, string> = {}) =>
  (target: Target) =>
    rawRequest(target.api.baseUrl, {
      method: 'POST',
      path: '/v1/runs',
      headers: { ...JSON_TYPE, ...(token ? auth(token) : {}), ...headers },
      body,
    });
export const get =
  (path: string, headers: Record<string, string> = {}) =>
  (target: Target) =>
    rawRequest(target.api.baseUrl, { path, headers });
export const devToken = (headers: Record<string, string>) => (target: Target) =>
  rawRequest(target.dev.baseUrl, {
    path: '/console/dev-token',
    headers: { host: 'localhost', ...headers },
  });

/** A trickled run request: headers at once, then a byte of its body every 200 ms. */
const trickle = async (target: Target): Promise<RawResponse> => {
  const head = `POST /v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tokens.valid}\r\nContent-Type: application/json\r\n`;
  const { status, text } = await trickledRequest(target.api.baseUrl, head, {
    declaredBytes: 100_000,
    everyMs: 200,
    deadlineMs: 20_000,
  });
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

export const HOSTILE_ROWS: HostileRow[] = [
  ...[
    'x-forwarded-for: 8.8.8.8',
    'x-forwarded-host: localhost',
    'forwarded: for=8.8.8.8',
    'via: 1.1 nginx',
    'x-real-ip: 8.8.8.8',
  ].map((header): HostileRow => {
    const [name, value] = header.split(': ');
    return {
      name: `the dev token to a local request through a proxy (${name})`,
      onDev: true,
      send: devToken({ [name]: value }),
      status: 404,
      code: 'NO_DEV_TOKEN',
    };
  }),
  {
    name: 'a valid token in the query string',
    send: get(`/v1/threads?access_token=${tokens.valid}`),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'a valid token in a query pair split by a semicolon',
    send: get(`/v1/threads?limit=5;access_token=${tokens.valid}`),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'a valid token as a matrix parameter of the path (no such route)',
    send: get(`/v1/threads;access_token=${tokens.valid}`),
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'a valid token in a fragment of the request target',
    send: get(`/v1/threads#access_token=${tokens.valid}`),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'a valid token under a twice-encoded name',
    send: get(`/v1/threads?access%255Ftoken=${tokens.valid}`),
    status: 401,
    code: 'UNAUTHORIZED',
  },
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
  ...tokenRows.map(([name, token]): HostileRow => ({
    name,
    send: post(token, runBody('hostile-token')),
    status: 401,
    code: 'UNAUTHORIZED',
  })),
  {
    name: 'a token in a cookie, no Authorization',
    send: get('/v1/threads', { cookie: `session=${tokens.valid}; csrf=${TEST_SECRET}` }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'a valid token followed by junk',
    send: post(undefined, runBody('hostile-junk'), {
      authorization: `Bearer ${tokens.valid} junk`,
    }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'a valid token under the Basic scheme',
    send: get('/v1/threads', auth(tokens.valid, 'Basic')),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'the scheme in lower case (accepted)',
    send: get('/v1/threads', auth(tokens.valid, 'bearer')),
    status: 200,
  },
  {
    name: 'Content-Encoding: compress',
    send: post(valid, runBody('hostile-enc'), { 'content-encoding': 'compress' }),
    status: 415,
    code: 'UNSUPPORTED_CONTENT_ENCODING',
  },
  {
    name: 'Content-Encoding: gzip, gzip',
    send: post(valid, gzipSync(gzipSync(runBody('hostile-enc'))), {
      'content-encoding': 'gzip, gzip',
    }),
    status: 415,
    code: 'UNSUPPORTED_CONTENT_ENCODING',
  },
  {
    name: 'a UTF-16 body declared as such (JSON is UTF-8 only)',
    send: post(valid, Buffer.from(runBody('hostile-charset'), 'utf16le'), {
      'content-type': 'application/json; charset=utf-16le',
    }),
    status: 415,
    code: 'UNSUPPORTED_CHARSET',
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
    send: post(valid, gzipSync(runBody('hostile-enc')).subarray(0, 20), {
      'content-encoding': 'gzip',
    }),
    status: 400,
    code: 'INVALID_BODY',
  },
  {
    name: 'Content-Encoding: br on a plain body',
    send: post(valid, runBody('hostile-enc'), { 'content-encoding': 'br' }),
    status: 400,
    code: 'INVALID_BODY',
  },
  {
    name: 'a gzip body that inflates past the body limit',
    send: post(valid, gzipSync(Buffer.alloc(3_000_000, 0x20)), { 'content-encoding': 'gzip' }),
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  {
    name: 'a gzip body of a few kilobytes decoding to more than 100 times its size',
    send: post(
      valid,
      gzipSync(JSON.stringify({ threadId: 'hostile-ratio', pad: ' '.repeat(900_000) })),
      { 'content-encoding': 'gzip' },
    ),
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    names: 'times its encoded size',
  },
  {
    name: 'a body nesting arrays 65 levels deep',
    send: post(
      valid,
      runBody('hostile-deep', { state: JSON.parse(`${'['.repeat(64)}${']'.repeat(64)}`) }),
    ),
    status: 413,
    code: 'PAYLOAD_TOO_DEEP',
  },
  {
    name: 'a compressed body nesting 60,000 levels, without a token',
    send: post(undefined, gzipSync('['.repeat(60_000)), { 'content-encoding': 'gzip' }),
    status: 401,
    code: 'UNAUTHORIZED',
    // Refused unread: the connection closes rather than drain it.
    check: (response) => expect(response.headers.connection).toBe('close'),
  },
  {
    name: 'a compressed body nesting 60,000 levels, with a token',
    send: post(valid, gzipSync('['.repeat(60_000)), { 'content-encoding': 'gzip' }),
    status: 413,
    code: 'PAYLOAD_TOO_DEEP',
  },
  {
    name: 'a body that is not UTF-8',
    send: post(
      valid,
      Buffer.concat([
        Buffer.from('{"threadId":"hostile-utf8","x":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}'),
      ]),
    ),
    status: 400,
    code: 'INVALID_BODY',
    names: 'UTF-8',
  },
  {
    name: 'two Authorization headers, the first valid',
    send: (t) =>
      rawRequest(t.api.baseUrl, {
        method: 'POST',
        path: '/v1/runs',
        // Node's client adds no Host to headers given as a list.
        headers: [
          'host',
          '127.0.0.1',
          'content-type',
          'application/json',
          'authorization',
          `Bearer ${valid}`,
          'authorization',
          `Bearer ${tokens.expired}`,
        ],
        body: runBody('hostile-two-auth'),
      }),
    status: 400,
    code: 'DUPLICATE_AUTHORIZATION',
    names: 'authorization',
  },
  {
    name: 'a body trickled slower than HTTP_REQUEST_TIMEOUT_MS',
    send: trickle,
    status: 408,
    code: 'REQUEST_TIMEOUT',
  },
  {
    name: 'a body over 1 MB',
    send: post(
      valid,
      runBody('hostile-big', {
        messages: [{ id: 'u1', role: 'user', content: 'x'.repeat(1_100_000) }],
      }),
    ),
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  {
    name: 'invalid JSON',
    send: post(valid, '{"threadId":"hostile-json","messages":['),
    status: 400,
    code: 'INVALID_JSON',
  },
  {
    name: 'a message content of a wrong type',
    send: post(
      valid,
      runBody('hostile-type', { messages: [{ id: 'u1', role: 'user', content: 42 }] }),
    ),
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
    send: post(
      valid,
      runBody('hostile-many', {
        messages: Array.from({ length: 6 }, (_, i) => ({
          id: `m${i}`,
          role: 'user',
          content: 'spam',
        })),
      }),
    ),
    status: 429,
    code: 'TOO_MANY_MESSAGES',
    names: 'messages',
  },
  {
    name: 'an approval answer whose interrupt id holds U+0000',
    send: post(
      valid,
      runBody('hostile-resume', { resume: [{ interruptId: 'call\u0000', status: 'resolved' }] }),
    ),
    status: 422,
    code: 'VALIDATION_FAILED',
    names: 'resume[0].interruptId',
  },
  {
    name: 'an approval answer whose payload holds a lone surrogate',
    send: post(
      valid,
      runBody('hostile-resume', {
        resume: [{ interruptId: 'call-1', status: 'resolved', payload: { note: 'a\ud800' } }],
      }),
    ),
    status: 422,
    code: 'VALIDATION_FAILED',
    names: 'resume[0].payload.note',
  },
  {
    name: 'the threadId . in the body',
    send: post(valid, runBody('.')),
    status: 422,
    code: 'VALIDATION_FAILED',
    names: 'threadId',
  },
  {
    name: 'the threadId .. in the body',
    send: post(valid, runBody('..')),
    status: 422,
    code: 'VALIDATION_FAILED',
    names: 'threadId',
  },
  {
    name: 'a threadId with a slash in the body',
    send: post(valid, runBody('a/../b')),
    status: 422,
    code: 'VALIDATION_FAILED',
    names: 'threadId',
  },
  {
    name: 'the thread .. in the path',
    send: get('/v1/threads/..', auth(valid)),
    status: 400,
    code: 'INVALID_ID',
    names: 'threadId',
  },
  {
    name: 'the thread . in the path',
    send: get('/v1/threads/./messages', auth(valid)),
    status: 400,
    code: 'INVALID_ID',
    names: 'threadId',
  },
  {
    name: 'the thread %2E%2E in the path',
    send: get('/v1/threads/%2E%2E', auth(valid)),
    status: 400,
    code: 'INVALID_ID',
    names: 'threadId',
  },
  {
    name: 'a cancel of the thread ..',
    send: (t) =>
      rawRequest(t.api.baseUrl, {
        method: 'POST',
        path: '/v1/runs/../cancel',
        headers: auth(valid),
      }),
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
  {
    name: 'GET /metrics on the API port while METRICS_PORT is set',
    send: get('/metrics'),
    status: 404,
    code: 'NOT_FOUND',
  },
  // The table's service ran run-1 of hostile-own to its end before the rows.
  {
    name: 'a Last-Event-ID beyond the end of the log',
    send: get('/v1/runs/hostile-own/stream?runId=run-1', {
      ...auth(valid),
      'last-event-id': '999999',
    }),
    status: 400,
    code: 'INVALID_EVENT_ID',
    names: 'Last-Event-ID',
  },
  {
    name: 'a new message under the runId of an ended run',
    send: post(
      valid,
      JSON.stringify(
        runInput('hostile-own', 'run-1', [
          { id: 'own-u1', content: 'mine' },
          { id: 'own-u2', content: 'and run the tools again' },
        ]),
      ),
    ),
    status: 409,
    code: 'RUN_ID_REUSED',
    names: 'messages',
  },
  {
    name: 'a first message past MAX_THREAD_BYTES',
    send: post(
      valid,
      runBody('hostile-size', {
        messages: [{ id: 'u1', role: 'user', content: 'x'.repeat(300_000) }],
      }),
    ),
    status: 413,
    code: 'THREAD_TOO_LARGE',
    names: 'messages',
  },
  {
    name: 'a message page of limit 0',
    send: get('/v1/threads/hostile-own/messages?limit=0', auth(valid)),
    status: 400,
    names: 'limit',
  },
  {
    name: 'a message page of limit 1001',
    send: get('/v1/threads/hostile-own/messages?limit=1001', auth(valid)),
    status: 400,
    names: 'limit',
  },
  {
    name: 'a message page cursor that is not one',
    send: get('/v1/threads/hostile-own/messages?cursor=not-a-cursor!', auth(valid)),
    status: 400,
    code: 'INVALID_CURSOR',
    names: 'cursor',
  },
  {
    name: "a retry of another user's run",
    send: post(tokenFor('eve'), runBody('hostile-own')),
    status: 403,
    code: 'THREAD_FORBIDDEN',
  },
];
