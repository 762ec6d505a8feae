import { AgentServiceError } from './agent-service.error';

/** The thread belongs to another user. */
export class ThreadAccessDeniedError extends AgentServiceError {
  override readonly name = 'ThreadAccessDeniedError';
  readonly code = 'THREAD_FORBIDDEN';
  readonly status = 403;

  constructor(readonly threadId: string) {
    super(`thread ${threadId} belongs to another user; use a thread id of your own`);
  }
}
