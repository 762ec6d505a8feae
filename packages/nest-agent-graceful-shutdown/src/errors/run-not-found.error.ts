import { AgentServiceError } from './agent-service.error.js';

/** The thread has no run with this id. */
export class RunNotFoundError extends AgentServiceError {
  override readonly name = 'RunNotFoundError';

  constructor(
    readonly threadId: string,
    readonly runId: string,
  ) {
    super(
      'RUN_NOT_FOUND',
      404,
      `thread ${threadId} has no run ${runId}; omit runId to target the active run`,
    );
  }
}
