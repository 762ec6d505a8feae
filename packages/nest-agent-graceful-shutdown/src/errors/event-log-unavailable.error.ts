import { AgentServiceError } from './agent-service.error.js';

/** The run event log (Redis) could not be reached, so a run could not start or be joined: nothing was written. */
export class EventLogUnavailableError extends AgentServiceError {
  override readonly name = 'EventLogUnavailableError';

  /** @param retryAfterSeconds when the client should try again, in seconds. */
  constructor(
    readonly retryAfterSeconds = 2,
    reason?: string,
  ) {
    super('EVENT_LOG_UNAVAILABLE', 503, `the run event log is unreachable${reason ? ` (${reason})` : ''}; retry the same request in ${retryAfterSeconds} s`);
  }
}
