import { AgentServiceError } from './agent-service.error.js';

/** The thread already has an active run; wait for it to end or cancel it first. */
export class RunInProgressError extends AgentServiceError {
  override readonly name = 'RunInProgressError';

  constructor(
    readonly threadId: string,
    readonly activeRunId: string | null,
  ) {
    super(
      'RUN_IN_PROGRESS',
      409,
      `thread ${threadId} already has an active run${activeRunId ? ` (${activeRunId})` : ''}; wait for it to end or cancel it`,
    );
  }
}
