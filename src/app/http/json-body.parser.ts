import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { json, type NextFunction, type Request, type Response } from 'express';

/**
 * Parses JSON bodies up to `limit`, and turns the parser's failures into the API's error
 * format, naming the body: malformed JSON is 400 `INVALID_JSON`, too large is 413.
 */
export function jsonBodyParser(limit: string) {
  const parse = json({ limit });
  return (request: Request, response: Response, next: NextFunction): void => {
    parse(request, response, (error?: { type?: string; message?: string }) => {
      if (!error) return next();
      if (error.type === 'entity.too.large') {
        return next(new PayloadTooLargeException({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: `body: larger than ${limit}` }));
      }
      if (error.type === 'entity.parse.failed') {
        return next(new BadRequestException({ statusCode: 400, code: 'INVALID_JSON', message: `body: not valid JSON (${error.message})` }));
      }
      next(error);
    });
  };
}
