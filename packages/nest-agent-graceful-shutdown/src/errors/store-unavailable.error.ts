import { AgentServiceError } from './agent-service.error.js';

/** The session store could not be reached (a database restart or failover): nothing was written. */
export class StoreUnavailableError extends AgentServiceError {
  override readonly name = 'StoreUnavailableError';

  /** @param retryAfterSeconds when the client should try again, in seconds. */
  constructor(readonly retryAfterSeconds = 2) {
    super(
      'STORE_UNAVAILABLE',
      503,
      `the session store is unreachable; retry the same request in ${retryAfterSeconds} s`,
    );
  }
}
