import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import { RateLimitedError } from './rate-limited.error';

/**
 * The per-user request rate limit (`RATE_LIMIT_PER_MINUTE`): one bucket per user, the bearer
 * token's `sub`, across every route, so users behind one proxy address do not share a limit.
 * It must run after `JwtAuthGuard`, which sets the user. Routes without a user (the probes,
 * `/metrics`, the console page) are not limited. Over the limit: 429 `RATE_LIMITED` with
 * `Retry-After` in seconds (the default throttler's name adds no suffix to the header).
 */
@Injectable()
export class UserThrottlerGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(
      context.getType() !== 'http' || userOf(context.switchToHttp().getRequest()) === undefined,
    );
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    return Promise.resolve(`user:${userOf(request)}`);
  }

  protected override generateKey(
    _context: ExecutionContext,
    tracker: string,
    throttlerName: string,
  ): string {
    return `agent-rate:${throttlerName}:${tracker}`;
  }

  protected override throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw new RateLimitedError(Math.max(1, detail.timeToBlockExpire));
  }
}

function userOf(request: Record<string, unknown>): string | undefined {
  return typeof request.userId === 'string' ? request.userId : undefined;
}
