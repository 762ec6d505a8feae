import { AgentServiceError } from './agent-service.error';

/** The thread already has an active run; wait for it to end or cancel it first. */
export class RunInProgressError extends AgentServiceError {
  override readonly name = 'RunInProgressError';
  readonly code = 'RUN_IN_PROGRESS';
  readonly status = 409;

  constructor(readonly threadId: string, readonly activeRunId: string | null) {
    super(
      `thread ${threadId} already has an active run${activeRunId ? ` (${activeRunId})` : ''}; wait for it to end or cancel it`,
    );
  }
}
