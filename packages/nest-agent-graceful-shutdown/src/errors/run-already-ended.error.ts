import { AgentServiceError } from './agent-service.error.js';

/**
 * A run request names a run that already ended, and its event log, which would have answered
 * with a replay, is no longer kept. The body carries `{ runId, status }`; the thread's messages
 * hold the run's history. Nothing was written: to go on, send a new `runId`.
 */
export class RunAlreadyEndedError extends AgentServiceError {
  override readonly name = 'RunAlreadyEndedError';

  /** @param runStatus how the run ended, as clients see it: `completed`, `canceled`, `failed`, `interrupted` or `awaiting_approval`. */
  constructor(
    readonly threadId: string,
    readonly runId: string,
    readonly runStatus: string,
  ) {
    super(
      'RUN_ALREADY_ENDED',
      409,
      `run ${runId} of thread ${threadId} already ended (${runStatus}) and its event log is no longer kept; read GET /v1/threads/${threadId}/messages, or send a new runId to go on`,
      { runId, status: runStatus },
    );
  }
}
