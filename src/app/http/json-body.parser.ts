import { BadRequestException, HttpException, HttpStatus, Logger, PayloadTooLargeException } from '@nestjs/common';
import { MIMEType } from 'node:util';
import { json, type NextFunction, type Request, type Response } from 'express';
import { redactUrl } from '../logging/redact-url';

/** The `Content-Encoding`s a body may have; anything else is 415 before a byte is read. */
export const BODY_ENCODINGS: readonly string[] = ['identity', 'gzip', 'deflate', 'br'];

/** A body-parser (raw-body, zlib) failure: `type` names body-parser's own, `code` zlib's. */
interface BodyError {
  type?: string;
  code?: string;
  status?: number;
  message?: string;
}

const unsupportedEncoding = () =>
  new HttpException(
    { statusCode: 415, code: 'UNSUPPORTED_CONTENT_ENCODING', message: `content-encoding: must be one of ${BODY_ENCODINGS.join(', ')}` },
    HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  );

const unsupportedCharset = () =>
  new HttpException({ statusCode: 415, code: 'UNSUPPORTED_CHARSET', message: 'content-type: the charset must be utf-8' }, HttpStatus.UNSUPPORTED_MEDIA_TYPE);

/** The charset a request's `Content-Type` declares, in lower case; undefined when it names none (or cannot be read). */
function declaredCharset(request: Request): string | undefined {
  const header = request.headers['content-type'];
  if (!header) return undefined;
  try {
    return new MIMEType(header).params.get('charset')?.toLowerCase() ?? undefined;
  } catch {
    return undefined;
  }
}

const invalidBody = (message: string) => new BadRequestException({ statusCode: 400, code: 'INVALID_BODY', message: `body: ${message}` });

/** Whether the request announces a body (`Content-Length` above 0 or a `Transfer-Encoding`). */
function hasBody(request: Request): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

/**
 * What a body-parser failure is for the client, in the API's error format; `undefined` for a
 * body the client abandoned (nobody is left to answer) and the error itself for what is not
 * the client's doing.
 */
export function bodyParserError(error: BodyError, limit: string, encoding: string): Error | undefined {
  switch (error.type) {
    case 'request.aborted':
      return undefined;
    case 'entity.too.large':
      return new PayloadTooLargeException({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: `body: larger than ${limit}` });
    case 'entity.parse.failed':
      return new BadRequestException({ statusCode: 400, code: 'INVALID_JSON', message: `body: not valid JSON (${error.message})` });
    case 'encoding.unsupported':
      return unsupportedEncoding();
    case 'charset.unsupported':
      return unsupportedCharset();
    case 'request.size.invalid':
      return invalidBody('its length does not match Content-Length');
  }
  // zlib's failures carry its code (Z_DATA_ERROR, Z_BUF_ERROR, ERR__ERROR_FORMAT_… of brotli) and body-parser's status 400.
  if (error.code?.startsWith('Z_') || error.code?.startsWith('ERR__')) {
    return invalidBody(`does not decode as ${encoding}`);
  }
  if (error.status && error.status >= 400 && error.status < 500) return invalidBody('cannot be read');
  return error as Error;
}

/**
 * Parses JSON bodies up to `limit` (after decoding), and turns the parser's failures into the
 * API's error format, naming the body: malformed JSON is 400 `INVALID_JSON`, a body that does not
 * decode as its `Content-Encoding` 400 `INVALID_BODY`, an encoding other than identity, gzip,
 * deflate or br 415 `UNSUPPORTED_CONTENT_ENCODING`, a charset other than UTF-8 415
 * `UNSUPPORTED_CHARSET`, too large 413. A body the client abandons
 * (or that arrived too slowly, answered 408 by the server) is not an error of the service: one
 * warn line without a stack, `request body aborted`, tells of it, and nothing is answered.
 */
export function jsonBodyParser(limit: string) {
  const parse = json({ limit });
  const logger = new Logger('Http');
  return (request: Request, response: Response, next: NextFunction): void => {
    const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (hasBody(request) && !BODY_ENCODINGS.includes(encoding)) {
      request.resume();
      return next(unsupportedEncoding());
    }
    // JSON is UTF-8 (RFC 8259): body-parser would decode UTF-16 and UTF-32 too, so any other charset is refused here.
    const charset = declaredCharset(request);
    if (hasBody(request) && charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      request.resume();
      return next(unsupportedCharset());
    }
    parse(request, response, (error?: BodyError) => {
      if (!error) return next();
      const answer = bodyParserError(error, limit, encoding);
      if (answer) return next(answer);
      logger.warn({ msg: 'request body aborted', method: request.method, url: redactUrl(request.originalUrl) });
    });
  };
}
