import { AgentServiceError } from './agent-service.error.js';

/**
 * A query parameter of a paged read (the thread list, a thread's messages) that cannot be used:
 * a `limit` out of bounds, or a `cursor` not from `nextCursor`.
 */
export class InvalidThreadListQueryError extends AgentServiceError {
  override readonly name = 'InvalidThreadListQueryError';

  /** @param field the query parameter, `limit` or `cursor`; the message starts with it. */
  constructor(
    readonly field: 'limit' | 'cursor',
    problem: string,
  ) {
    super(field === 'limit' ? 'INVALID_LIMIT' : 'INVALID_CURSOR', 400, `${field}: ${problem}`);
  }
}
