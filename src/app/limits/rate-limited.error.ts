import { HttpException, HttpStatus } from '@nestjs/common';

/** The user sent more requests than `RATE_LIMIT_PER_MINUTE` allows; nothing was done. */
export class RateLimitedError extends HttpException {
  override readonly name = 'RateLimitedError';
  readonly code = 'RATE_LIMITED';

  /** @param retryAfterSeconds when the user's requests are taken again, in seconds (the `Retry-After` header says the same). */
  constructor(readonly retryAfterSeconds: number) {
    const message = `too many requests for this user; retry in ${retryAfterSeconds} s`;
    super(
      { statusCode: HttpStatus.TOO_MANY_REQUESTS, code: 'RATE_LIMITED', message },
      HttpStatus.TOO_MANY_REQUESTS,
    );
    this.message = message;
  }
}
