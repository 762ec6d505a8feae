import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import { PinoLogger } from 'nestjs-pino';
import type { Observable } from 'rxjs';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 && value.length <= 128 ? value : undefined;

/**
 * Adds the request's thread and run, where it names them (path, query or run input), to every
 * later log line of the request, its `request completed` line included.
 */
@Injectable()
export class RequestLogContext implements NestInterceptor {
  constructor(private readonly logger: PinoLogger) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<
      string,
      unknown
    >;
    const threadId = text(req.params?.threadId) ?? text(body.threadId);
    const runId = text(req.query?.runId) ?? text(body.runId);
    if (threadId || runId) {
      try {
        this.logger.assign({ ...(threadId ? { threadId } : {}), ...(runId ? { runId } : {}) });
      } catch {
        // Outside a request's log scope (a route the HTTP logger skips): the lines go without them.
      }
    }
    return next.handle();
  }
}
