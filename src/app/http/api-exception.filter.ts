import {
  ArgumentsHost,
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  type ExceptionFilter,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AgentServiceError } from 'nest-agent-graceful-shutdown';
import { BodyAbortedError, hasBody } from './json-body.reader';

const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_FAILED',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * The service's error format, `{ statusCode, code, message }`, for every error. The library's
 * errors already have it (and their `Retry-After` is set by the library before any filter
 * runs); this filter gives Nest's and the service's own errors a `code` too.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(error: unknown, host: ArgumentsHost): void {
    // The client left before its body arrived: nobody is left to answer (`JsonBodyInterceptor` logged it).
    if (error instanceof BodyAbortedError) return;
    const request = host.switchToHttp().getRequest<IncomingMessage>();
    const response = host.switchToHttp().getResponse<ServerResponse>();
    if (response.headersSent) {
      response.end();
      return;
    }
    // A body refused unread (by a guard, or past a bound) is not read to its end: the connection closes after the answer.
    if (hasBody(request) && !request.complete) response.setHeader('Connection', 'close');
    const body = this.describe(error);
    this.adapterHost.httpAdapter.reply(response, body, body.statusCode);
  }

  private describe(error: unknown): { statusCode: number; code: string; message: string } {
    if (error instanceof HttpException) {
      const statusCode = error.getStatus();
      const body = error.getResponse() as { message?: string | string[]; code?: string };
      const text =
        typeof body === 'string'
          ? body
          : Array.isArray(body.message)
            ? body.message.join('; ')
            : body.message;
      // The library's errors carry fields a client acts on (`runId`, `status`, `field`): kept.
      const details = error instanceof AgentServiceError ? (body as Record<string, unknown>) : {};
      return {
        ...details,
        statusCode,
        code: body.code ?? CODES[statusCode] ?? 'ERROR',
        message: text ?? error.message,
      };
    }
    const status = (error as { status?: number }).status;
    if (status === 413)
      return {
        statusCode: 413,
        code: 'PAYLOAD_TOO_LARGE',
        message: 'the request body is too large',
      };
    // A client's fault reported by middleware (an http-errors error): answered, not logged as the service's failure.
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return {
        statusCode: status,
        code: CODES[status] ?? 'BAD_REQUEST',
        message: 'the request cannot be served as sent',
      };
    }
    this.logger.error({
      msg: 'unhandled error',
      error: error instanceof Error ? error.stack : String(error),
    });
    return {
      statusCode: HttpStatus.INTERNAL_SERVER_ERROR,
      code: 'INTERNAL_ERROR',
      message: 'internal error',
    };
  }
}
