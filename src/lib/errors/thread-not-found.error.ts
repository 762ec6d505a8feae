import { AgentServiceError } from './agent-service.error';

/** No thread has this id; start one with POST /v1/runs. */
export class ThreadNotFoundError extends AgentServiceError {
  override readonly name = 'ThreadNotFoundError';
  readonly code = 'THREAD_NOT_FOUND';
  readonly status = 404;

  constructor(readonly threadId: string) {
    super(`thread ${threadId} does not exist; start it with a run request`);
  }
}
