import { AgentServiceError } from './agent-service.error';

/** The thread has no run with this id. */
export class RunNotFoundError extends AgentServiceError {
  override readonly name = 'RunNotFoundError';
  readonly code = 'RUN_NOT_FOUND';
  readonly status = 404;

  constructor(readonly threadId: string, readonly runId: string) {
    super(`thread ${threadId} has no run ${runId}; omit runId to target the active run`);
  }
}
