import { AgentServiceError } from './agent-service.error.js';

/**
 * The user already has as many active runs as allowed (`limits.maxActiveRunsPerUser`): nothing
 * was written. Retry once one of them has ended, or cancel one.
 */
export class TooManyRunsError extends AgentServiceError {
  override readonly name = 'TooManyRunsError';

  /**
   * @param limit the most active runs the user may have at once.
   * @param retryAfterSeconds when the client should try again, in seconds.
   */
  constructor(
    readonly ownerId: string,
    readonly limit: number,
    readonly retryAfterSeconds = 5,
  ) {
    super(
      'TOO_MANY_RUNS',
      429,
      `user ${ownerId} already has ${limit} active run${limit === 1 ? '' : 's'}, the most allowed at once; wait for one to end (retry in ${retryAfterSeconds} s) or cancel one`,
    );
  }
}
