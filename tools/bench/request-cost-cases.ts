import { gzipSync } from 'node:zlib';
import type { BodyRequest } from './body-request';

/** Which process a case is sent to: the reference service, or the peer with Nest's defaults. */
export type CostSubject = 'service' | 'peer';

/** One kind of request whose server CPU section (m) measures, and the status it must get. */
export interface CostCase {
  subject: CostSubject;
  kind: string;
  request: BodyRequest;
  /** The status the subject must answer; another is a failure of the section. */
  expected: number;
  /** The case every other case of its subject is compared with. */
  baseline?: boolean;
  /**
   * Refused with the body unread and the connection closed: a client still writing the body may
   * find the connection closed before it read the answer (counted, not a failure).
   */
  refusedUnread?: boolean;
}

/** ~200 B: a run as a client sends it. */
const plainRun = (threadId: string) =>
  Buffer.from(
    JSON.stringify({
      threadId,
      runId: 'run-1',
      state: {},
      tools: [],
      context: [],
      forwardedProps: {},
      messages: [{ id: 'm-1', role: 'user', content: 'What is the weather in Lisbon tomorrow?' }],
    }),
  );
/** 500,000 `[` compressed to about half a kilobyte. */
const GZIP_NEST_500K = gzipSync('['.repeat(500_000), { level: 9 });
/** 60,000 `[` compressed: decodes under the ratio's free allowance, so only the depth bound refuses it. */
const GZIP_NEST_60K = gzipSync('['.repeat(60_000), { level: 9 });
/** 900,000 `[` as they are, under the 1 MB body limit. */
const PLAIN_NEST_900K = Buffer.from('['.repeat(900_000));

/** A `POST /v1/runs` with `body`, gzip-encoded if `gzip`, and the token if any. */
function postRun(body: Buffer, token: string | undefined, gzip = false): BodyRequest {
  const headers = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  return { method: 'POST', path: '/v1/runs', headers, body };
}

/** The attackers' body of the latency measurement: the hostile gzip body, without a token. */
export const HOSTILE_GZIP = postRun(GZIP_NEST_500K, undefined, true);

/** A user's authenticated `GET /v1/threads`. */
export const userRequest = (token: string): BodyRequest => ({
  method: 'GET',
  path: '/v1/threads',
  headers: { authorization: `Bearer ${token}` },
});

/**
 * The cases of section (m): the service without a token (plain, hostile gzip, hostile plain),
 * with one (the hostile gzip, a nesting refused before parsing, a well-formed invalid run), and
 * the peer sent the same bodies without a token, where its parser runs before its guard.
 */
export function costCases(token: string): CostCase[] {
  const plain = plainRun('bench-cost');
  return [
    {
      subject: 'service',
      kind: 'no token, plain run body (~200 B)',
      request: postRun(plain, undefined),
      expected: 401,
      baseline: true,
      refusedUnread: true,
    },
    {
      subject: 'service',
      kind: `no token, gzip of 500,000 '[' (${GZIP_NEST_500K.length} B)`,
      request: HOSTILE_GZIP,
      expected: 401,
      refusedUnread: true,
    },
    {
      subject: 'service',
      kind: `no token, 900,000 '[' plain (900 KB)`,
      request: postRun(PLAIN_NEST_900K, undefined),
      expected: 401,
      refusedUnread: true,
    },
    {
      subject: 'service',
      kind: `token, gzip of 500,000 '['`,
      request: postRun(GZIP_NEST_500K, token, true),
      expected: 413,
      refusedUnread: true,
    },
    {
      subject: 'service',
      kind: `token, gzip of 60,000 '[' (${GZIP_NEST_60K.length} B)`,
      request: postRun(GZIP_NEST_60K, token, true),
      expected: 413,
      refusedUnread: true,
    },
    {
      subject: 'service',
      kind: `token, run with threadId '..' (refused 422)`,
      request: postRun(plainRun('..'), token),
      expected: 422,
    },
    {
      subject: 'peer',
      kind: 'no token, plain run body (~200 B)',
      request: postRun(plain, undefined),
      expected: 401,
      baseline: true,
    },
    {
      subject: 'peer',
      kind: `no token, gzip of 500,000 '['`,
      request: HOSTILE_GZIP,
      expected: 400,
    },
    {
      subject: 'peer',
      kind: `no token, 900,000 '[' plain (900 KB)`,
      request: postRun(PLAIN_NEST_900K, undefined),
      expected: 400,
    },
  ];
}
