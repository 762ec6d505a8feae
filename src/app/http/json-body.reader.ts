import {
  BadRequestException,
  HttpException,
  HttpStatus,
  PayloadTooLargeException,
} from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { MIMEType } from 'node:util';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { nestsDeeperThan } from './json-depth';

/** The `Content-Encoding`s a body may have; anything else is 415 before a byte is read. */
export const BODY_ENCODINGS: readonly string[] = ['identity', 'gzip', 'deflate', 'br'];
/** How deep objects and arrays may nest in a request body; deeper is 413 before it is parsed. */
export const MAX_JSON_DEPTH = 64;
/** How many times its encoded size a compressed body may decode to (past `RATIO_FREE_BYTES`); more is 413 as it decodes. */
export const MAX_DECODE_RATIO = 100;
/** What any compressed body may decode to, whatever its ratio. */
export const RATIO_FREE_BYTES = 64 * 1024;

/** The bounds of a request body. */
export interface JsonBodyLimits {
  /** Largest body, after decoding, in bytes. */
  maxBytes: number;
  /** The same, as configured (`1mb`), for messages. */
  label: string;
}

const unsupportedEncoding = () =>
  new HttpException(
    {
      statusCode: 415,
      code: 'UNSUPPORTED_CONTENT_ENCODING',
      message: `content-encoding: must be one of ${BODY_ENCODINGS.join(', ')}`,
    },
    HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  );
const unsupportedCharset = () =>
  new HttpException(
    {
      statusCode: 415,
      code: 'UNSUPPORTED_CHARSET',
      message: 'content-type: the charset must be utf-8',
    },
    HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  );
const invalidBody = (message: string) =>
  new BadRequestException({ statusCode: 400, code: 'INVALID_BODY', message: `body: ${message}` });
const invalidJson = (message: string) =>
  new BadRequestException({
    statusCode: 400,
    code: 'INVALID_JSON',
    message: `body: not valid JSON (${message})`,
  });
const tooLarge = (message: string) =>
  new PayloadTooLargeException({
    statusCode: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: `body: ${message}`,
  });
const tooDeep = () =>
  new PayloadTooLargeException({
    statusCode: 413,
    code: 'PAYLOAD_TOO_DEEP',
    message: `body: objects and arrays nest deeper than ${MAX_JSON_DEPTH} levels`,
  });

/** The client went away (or was cut off) before its body arrived: nobody is left to answer. */
export class BodyAbortedError extends Error {
  override readonly name = 'BodyAbortedError';
}

/** Whether the request announces a body (`Content-Length` above 0 or a `Transfer-Encoding`). */
export function hasBody(request: IncomingMessage): boolean {
  return (
    request.headers['transfer-encoding'] !== undefined ||
    Number(request.headers['content-length'] ?? 0) > 0
  );
}

/** The request's media type and charset (lower case); undefined fields when it names none or cannot be read. */
function contentType(request: IncomingMessage): { essence?: string; charset?: string } {
  const header = request.headers['content-type'];
  if (!header) return {};
  try {
    const type = new MIMEType(header);
    return {
      essence: type.essence,
      charset: type.params.get('charset')?.toLowerCase() ?? undefined,
    };
  } catch {
    return {};
  }
}

/** `application/json`, or a `+json` type (RFC 6839). */
const isJson = (essence: string | undefined) =>
  essence === 'application/json' ||
  (essence?.startsWith('application/') === true && essence.endsWith('+json'));

/**
 * Reads, decodes and parses a JSON request body, every step bounded, and answers in the API's
 * error format, naming the body:
 * - before a byte is read: an encoding other than identity, gzip, deflate or br is 415
 *   `UNSUPPORTED_CONTENT_ENCODING`, a charset other than UTF-8 415 `UNSUPPORTED_CHARSET`, a
 *   `Content-Length` over the limit 413 `PAYLOAD_TOO_LARGE`;
 * - while it decodes: past `limits.maxBytes`, or past {@link MAX_DECODE_RATIO} times its encoded
 *   size (beyond {@link RATIO_FREE_BYTES}), 413 `PAYLOAD_TOO_LARGE` at once, the rest unread; a
 *   body that does not decode as its encoding 400 `INVALID_BODY`;
 * - before it is parsed: nesting deeper than {@link MAX_JSON_DEPTH} is 413 `PAYLOAD_TOO_DEEP`,
 *   bytes that are not UTF-8 400 `INVALID_BODY`; then anything but a JSON object or array is
 *   400 `INVALID_JSON`.
 *
 * Resolves undefined for a request without a body or with a media type other than JSON (left
 * unread). Rejects with {@link BodyAbortedError} when the client abandons its body.
 */
export async function readJsonBody(
  request: IncomingMessage,
  limits: JsonBodyLimits,
): Promise<unknown> {
  if (!hasBody(request)) return undefined;
  const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (!BODY_ENCODINGS.includes(encoding)) throw unsupportedEncoding();
  const { essence, charset } = contentType(request);
  // JSON is UTF-8 (RFC 8259): any other declared charset is refused, never decoded.
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    throw unsupportedCharset();
  if (!isJson(essence)) return undefined;
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (encoding === 'identity' && declared > limits.maxBytes)
    throw tooLarge(`larger than ${limits.label}`);
  const bytes = await collect(request, encoding, limits);
  if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) throw tooDeep();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidBody('is not UTF-8');
  }
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && first !== '[') throw invalidJson('the body must be a JSON object or array');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidJson((error as Error).message);
  }
}

/** The decoded body, stopped (and the connection left to close) as soon as a bound is passed. */
function collect(
  request: IncomingMessage,
  encoding: string,
  limits: JsonBodyLimits,
): Promise<Buffer> {
  const decoder = decoderFor(encoding);
  const source: Readable = decoder ?? request;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let encodedBytes = 0;
    let decodedBytes = 0;
    let settled = false;
    const finish = (error: Error | undefined, body?: Buffer) => {
      if (settled) return;
      settled = true;
      request.off('data', countEncoded);
      if (error) {
        if (decoder) request.unpipe(decoder);
        decoder?.destroy();
        request.pause();
        reject(error);
      } else resolve(body!);
    };
    const countEncoded = (chunk: Buffer) => (encodedBytes += chunk.length);
    request.on('data', countEncoded);
    source.on('data', (chunk: Buffer) => {
      decodedBytes += chunk.length;
      if (decodedBytes > limits.maxBytes) return finish(tooLarge(`larger than ${limits.label}`));
      if (
        decoder &&
        decodedBytes > RATIO_FREE_BYTES &&
        decodedBytes > MAX_DECODE_RATIO * encodedBytes
      ) {
        return finish(tooLarge(`decodes to more than ${MAX_DECODE_RATIO} times its encoded size`));
      }
      chunks.push(chunk);
    });
    source.on('end', () => finish(undefined, Buffer.concat(chunks, decodedBytes)));
    // zlib's failures carry its code (Z_DATA_ERROR, Z_BUF_ERROR, ERR__ERROR_FORMAT_… of brotli).
    decoder?.on('error', () => finish(invalidBody(`does not decode as ${encoding}`)));
    request.on('aborted', () => finish(new BodyAbortedError('the client abandoned its body')));
    request.on('error', () => finish(new BodyAbortedError('the body could not be read')));
    request.on('close', () => {
      if (!request.complete)
        finish(new BodyAbortedError('the connection closed before the body arrived'));
    });
    if (decoder) request.pipe(decoder);
  });
}

function decoderFor(encoding: string) {
  switch (encoding) {
    case 'gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}
