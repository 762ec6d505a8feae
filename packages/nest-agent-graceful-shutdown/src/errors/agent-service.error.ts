import { HttpException } from '@nestjs/common';

/**
 * Base of the errors the library raises for a request it refuses: an `HttpException` whose
 * body is `{ statusCode, code, message }`, so Nest answers correctly even without a filter.
 * `code` is stable (UPPER_SNAKE); `getStatus()` is the HTTP status.
 */
export abstract class AgentServiceError extends HttpException {
  constructor(
    readonly code: string,
    status: number,
    message: string,
  ) {
    super({ statusCode: status, code, message }, status);
    this.message = message;
  }
}
