import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { catchError, throwError, type Observable } from 'rxjs';
import { AgentServiceError } from '../errors/agent-service.error.js';

/**
 * Adds `Retry-After` to the answer of a library error that says when to retry (a 503 during a
 * shutdown or a store outage). It only sets the header and rethrows: whichever exception
 * filter writes the body, Nest's own or the host's, the header is already on the response.
 * Works on Express and Fastify through the HTTP adapter; other contexts pass untouched.
 */
@Injectable()
export class RetryAfterInterceptor implements NestInterceptor {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    return next.handle().pipe(
      catchError((error: unknown) => {
        const seconds =
          error instanceof AgentServiceError
            ? (error as { retryAfterSeconds?: unknown }).retryAfterSeconds
            : undefined;
        const adapter = this.adapterHost.httpAdapter;
        if (typeof seconds === 'number' && adapter)
          adapter.setHeader(context.switchToHttp().getResponse(), 'Retry-After', String(seconds));
        return throwError(() => error);
      }),
    );
  }
}
