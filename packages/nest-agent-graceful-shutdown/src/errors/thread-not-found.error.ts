import { AgentServiceError } from './agent-service.error.js';

/** No thread has this id; start one with POST /v1/runs. */
export class ThreadNotFoundError extends AgentServiceError {
  override readonly name = 'ThreadNotFoundError';

  constructor(readonly threadId: string) {
    super(
      'THREAD_NOT_FOUND',
      404,
      `thread ${threadId} does not exist; start it with a run request`,
    );
  }
}
