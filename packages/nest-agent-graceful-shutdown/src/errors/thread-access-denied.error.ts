import { AgentServiceError } from './agent-service.error.js';

/** The thread belongs to another user. */
export class ThreadAccessDeniedError extends AgentServiceError {
  override readonly name = 'ThreadAccessDeniedError';

  constructor(readonly threadId: string) {
    super(
      'THREAD_FORBIDDEN',
      403,
      `thread ${threadId} belongs to another user; use a thread id of your own`,
    );
  }
}
