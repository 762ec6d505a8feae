import {
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import bytes from 'bytes';
import type { Request, Response } from 'express';
import { from, switchMap, type Observable } from 'rxjs';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';
import { redactUrl } from '../logging/redact-url';
import { expectsContinue } from './expect-continue';
import { BodyAbortedError, readJsonBody, type JsonBodyLimits } from './json-body.reader';

/**
 * Reads each request's JSON body (`readJsonBody`) only once the guards let the request through:
 * an unauthenticated, rate-limited or forbidden request costs no byte of its body read,
 * decoded or parsed, and a client that sent `Expect: 100-continue` gets its `100 Continue` only
 * here, so it never sends a body the service refuses. A body the client abandons (or that
 * arrived too slowly, answered 408 by the server) is one warn line without a stack, `request
 * body aborted`, and nothing is answered.
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Http');
  private readonly limits: JsonBodyLimits;

  constructor(config: ConfigService) {
    const label = config.getOrThrow<AppConfig>(APP_CONFIG_KEY).bodyLimit;
    this.limits = { label, maxBytes: bytes.parse(label) ?? 0 };
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    return from(this.read(request, response)).pipe(switchMap(() => next.handle()));
  }

  private async read(request: Request, response: Response): Promise<void> {
    if (expectsContinue(request)) response.writeContinue();
    try {
      const body = await readJsonBody(request, this.limits);
      if (body !== undefined) request.body = body;
    } catch (error) {
      if (error instanceof BodyAbortedError)
        this.logger.warn({
          msg: 'request body aborted',
          method: request.method,
          url: redactUrl(request.originalUrl),
        });
      throw error;
    }
  }
}
