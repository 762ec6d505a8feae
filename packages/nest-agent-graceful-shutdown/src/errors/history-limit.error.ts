import { AgentServiceError } from './agent-service.error.js';

/**
 * The request's new messages would take the thread's stored history past
 * `limits.maxHistoryMessages`: nothing was written. Start a new thread (this one can still be
 * read, and an interrupted run on it still continues). The same request cannot succeed later,
 * so `Retry-After` is long: a client that honours it gives up instead of looping.
 */
export class HistoryLimitError extends AgentServiceError {
  override readonly name = 'HistoryLimitError';

  /**
   * @param stored how many messages the thread holds.
   * @param added how many new messages the request holds.
   * @param limit the most messages a thread's history may reach through a request.
   * @param retryAfterSeconds `Retry-After`, in seconds. @default 3600
   */
  constructor(
    readonly threadId: string,
    readonly stored: number,
    readonly added: number,
    readonly limit: number,
    readonly retryAfterSeconds = 3600,
  ) {
    super(
      'HISTORY_LIMIT_REACHED',
      429,
      `messages: thread ${threadId} holds ${stored} messages and the request adds ${added}, past the limit of ${limit} per thread; start a new thread to go on`,
    );
  }
}
