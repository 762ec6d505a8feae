import { AgentServiceError } from './agent-service.error.js';

/**
 * The run event log could not be read or written, so a run could not start or be joined:
 * nothing was written. The client is told to retry; what the log's driver said stays in
 * `cause` for the service's own logs and never reaches the response.
 */
export class EventLogUnavailableError extends AgentServiceError {
  override readonly name = 'EventLogUnavailableError';

  /**
   * @param retryAfterSeconds when the client should try again, in seconds.
   * @param cause what the log's driver reported.
   */
  constructor(
    readonly retryAfterSeconds = 2,
    cause?: unknown,
  ) {
    super(
      'EVENT_LOG_UNAVAILABLE',
      503,
      `the run event log is unreachable; retry the same request in ${retryAfterSeconds} s`,
    );
    if (cause !== undefined) this.cause = cause;
  }
}
