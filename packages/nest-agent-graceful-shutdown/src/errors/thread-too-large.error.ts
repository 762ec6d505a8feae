import { AgentServiceError } from './agent-service.error.js';

/**
 * The request's new messages would take the thread's stored history past
 * `limits.maxThreadBytes`: nothing was written. Start a new thread (this one can still be read,
 * and an interrupted run on it still continues). The same request cannot succeed later, so it
 * is a 413, not a 429.
 */
export class ThreadTooLargeError extends AgentServiceError {
  override readonly name = 'ThreadTooLargeError';

  /**
   * @param storedBytes the size of the thread's stored history, in bytes.
   * @param addedBytes the size of the request's new messages, in bytes.
   * @param limit the most bytes a thread's history may reach through a request.
   */
  constructor(
    readonly threadId: string,
    readonly storedBytes: number,
    readonly addedBytes: number,
    readonly limit: number,
  ) {
    super(
      'THREAD_TOO_LARGE',
      413,
      `messages: thread ${threadId} holds ${storedBytes} bytes and the request adds ${addedBytes}, past the limit of ${limit} bytes per thread; start a new thread to go on`,
    );
  }
}
