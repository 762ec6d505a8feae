import { HttpException } from '@nestjs/common';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { MAX_DECODE_RATIO, MAX_JSON_DEPTH, readJsonBody } from './json-body.reader';

const LIMITS = { maxBytes: 1_000_000, label: '1mb' };
let server: Server;
let baseUrl: string;

/** What the reader made of a request: the parsed body, or the status and body of its refusal. */
type Outcome = { body: unknown } | { status: number; code: string; message: string };

beforeAll(async () => {
  server = createServer((request, response) => {
    readJsonBody(request, LIMITS).then(
      (body) => response.end(JSON.stringify({ body: body ?? null })),
      (error: unknown) => {
        const answer =
          error instanceof HttpException
            ? (error.getResponse() as object)
            : { statusCode: 0, code: String(error) };
        response.setHeader('connection', 'close');
        response.end(JSON.stringify(answer));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function send(body: string | Buffer, headers: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${baseUrl}/`,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          const answer = JSON.parse(text) as {
            statusCode?: number;
            code: string;
            message: string;
            body?: unknown;
          };
          resolve(
            answer.statusCode === undefined
              ? { body: answer.body }
              : { status: answer.statusCode, code: answer.code, message: answer.message },
          );
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

describe('readJsonBody', () => {
  it('parses a JSON object, plain or in each encoding', async () => {
    const text = JSON.stringify({ threadId: 't1', messages: [{ id: 'u1', content: 'é 漢字' }] });
    for (const [encoding, body] of [
      ['identity', Buffer.from(text)],
      ['gzip', gzipSync(text)],
      ['deflate', deflateSync(text)],
      ['br', brotliCompressSync(text)],
    ] as const) {
      expect(await send(body, { 'content-encoding': encoding })).toEqual({
        body: JSON.parse(text),
      });
    }
  });

  it(`takes nesting up to ${MAX_JSON_DEPTH} levels and refuses deeper with 413 PAYLOAD_TOO_DEEP before parsing`, async () => {
    expect(await send(nested(MAX_JSON_DEPTH))).toMatchObject({ body: { a: expect.any(Array) } });
    expect(await send(nested(MAX_JSON_DEPTH + 1))).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_DEEP',
      message: expect.stringMatching(/^body: /),
    });
    expect(await send(gzipSync('['.repeat(60_000)), { 'content-encoding': 'gzip' })).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_DEEP',
    });
    // Deeper and larger, it decodes past the ratio first: refused while it decodes.
    expect(await send(gzipSync('['.repeat(500_000)), { 'content-encoding': 'gzip' })).toMatchObject(
      { status: 413, code: 'PAYLOAD_TOO_LARGE' },
    );
  });

  it(`refuses a body decoding to more than ${MAX_DECODE_RATIO} times its size with 413, and one past the limit`, async () => {
    const bomb = gzipSync(JSON.stringify({ pad: ' '.repeat(900_000) }));
    expect(await send(bomb, { 'content-encoding': 'gzip' })).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining('times'),
    });
    expect(await send(JSON.stringify({ pad: 'x'.repeat(1_100_000) }))).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'body: larger than 1mb',
    });
  });

  it('refuses what does not decode, is not UTF-8, or is not a JSON object or array with 400', async () => {
    expect(await send('{"a":1}', { 'content-encoding': 'gzip' })).toMatchObject({
      status: 400,
      code: 'INVALID_BODY',
      message: 'body: does not decode as gzip',
    });
    expect(
      await send(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])),
    ).toMatchObject({
      status: 400,
      code: 'INVALID_BODY',
      message: 'body: is not UTF-8',
    });
    expect(await send('"a string"')).toMatchObject({ status: 400, code: 'INVALID_JSON' });
    expect(await send('{"a":')).toMatchObject({ status: 400, code: 'INVALID_JSON' });
  });

  it('refuses another encoding or charset with 415, and leaves a body of another media type unread', async () => {
    expect(await send('{}', { 'content-encoding': 'compress' })).toMatchObject({
      status: 415,
      code: 'UNSUPPORTED_CONTENT_ENCODING',
    });
    expect(await send('{}', { 'content-type': 'application/json; charset=latin1' })).toMatchObject({
      status: 415,
      code: 'UNSUPPORTED_CHARSET',
    });
    expect(await send('{}', { 'content-type': 'text/plain' })).toEqual({ body: null });
    expect(await send('{"a":1}', { 'content-type': 'application/ld+json' })).toEqual({
      body: { a: 1 },
    });
  });
});
