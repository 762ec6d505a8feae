import { Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidThreadListQueryError, MAX_THREAD_PAGE_SIZE } from 'nest-agent-graceful-shutdown';
import type { ThreadListRequest } from 'nest-agent-graceful-shutdown/types';

/**
 * Reads `limit` and `cursor` of a paged read (`GET /v1/threads`, a thread's messages) from the
 * query string: each given at most once, `limit` in digits. Their bounds and the cursor's form
 * are checked by `ThreadQueryService`, with the same 400 errors naming the field.
 */
@Injectable()
export class ThreadListQueryPipe implements PipeTransform<
  Record<string, unknown>,
  ThreadListRequest
> {
  /** @param maxLimit the page size named in the error for a `limit` that is not digits. */
  constructor(private readonly maxLimit = MAX_THREAD_PAGE_SIZE) {}

  transform(query: Record<string, unknown>): ThreadListRequest {
    const { limit, cursor } = query;
    if (limit !== undefined && (typeof limit !== 'string' || !/^\d{1,4}$/.test(limit))) {
      throw new InvalidThreadListQueryError(
        'limit',
        `must be an integer from 1 to ${this.maxLimit}`,
      );
    }
    if (cursor !== undefined && typeof cursor !== 'string') {
      throw new InvalidThreadListQueryError(
        'cursor',
        'give it once, as the nextCursor of the previous page',
      );
    }
    return {
      ...(limit !== undefined ? { limit: Number(limit) } : {}),
      ...(cursor !== undefined ? { cursor } : {}),
    };
  }
}
