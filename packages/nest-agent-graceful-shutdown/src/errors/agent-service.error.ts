import { HttpException } from '@nestjs/common';

/**
 * Base of the errors the library raises for a request it refuses: an `HttpException` whose
 * body is `{ statusCode, code, message }`, plus the error's own `details` fields when it has
 * some, so Nest answers correctly even without a filter. `code` is stable (UPPER_SNAKE);
 * `getStatus()` is the HTTP status.
 */
export abstract class AgentServiceError extends HttpException {
  /** @param details fields a client acts on (`{ runId, status }`), added to the response body. */
  constructor(
    readonly code: string,
    status: number,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super({ ...details, statusCode: status, code, message }, status);
    this.message = message;
  }
}
