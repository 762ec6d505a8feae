import { ArgumentsHost, Catch, HttpException, HttpStatus, Logger, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { AgentServiceError } from '../errors/agent-service.error';
import { ShuttingDownError } from '../errors/shutting-down.error';
import { isTransientConnectionError } from '../session/connection-retry';

/** Seconds a client should wait before retrying while the session store is unreachable. */
const STORE_RETRY_AFTER_SECONDS = 2;

const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_FAILED',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * Answers every error as `{ statusCode, code, message }`; a 503 during a shutdown, or while
 * the session store is unreachable, carries `Retry-After`. Use it globally (`APP_FILTER`) or on the controllers that start runs.
 */
@Catch()
export class AgentExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  catch(error: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const { statusCode, code, message } = this.describe(error);
    if (response.headersSent) {
      response.end();
      return;
    }
    if (error instanceof ShuttingDownError) response.setHeader('Retry-After', String(error.retryAfterSeconds));
    if (code === 'STORE_UNAVAILABLE') response.setHeader('Retry-After', String(STORE_RETRY_AFTER_SECONDS));
    response.status(statusCode).json({ statusCode, code, message });
  }

  private describe(error: unknown): { statusCode: number; code: string; message: string } {
    if (error instanceof AgentServiceError) return { statusCode: error.getStatus(), code: error.code, message: error.message };
    if (error instanceof HttpException) {
      const statusCode = error.getStatus();
      const body = error.getResponse() as { message?: string | string[]; code?: string };
      const text = typeof body === 'string' ? body : Array.isArray(body.message) ? body.message.join('; ') : body.message;
      return { statusCode, code: body.code ?? CODES[statusCode] ?? 'ERROR', message: text ?? error.message };
    }
    const status = (error as { status?: number; type?: string }).status;
    if (status === 413) return { statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large' };
    if (isTransientConnectionError(error)) {
      // A database restart or failover: nothing was written, and the same request will work shortly.
      this.logger.warn({ msg: 'session store unreachable', error: error instanceof Error ? error.message : String(error) });
      return { statusCode: 503, code: 'STORE_UNAVAILABLE', message: 'the session store is unreachable; retry shortly' };
    }
    this.logger.error({ msg: 'unhandled error', error: error instanceof Error ? error.stack : String(error) });
    return { statusCode: HttpStatus.INTERNAL_SERVER_ERROR, code: 'INTERNAL_ERROR', message: 'internal error' };
  }
}
