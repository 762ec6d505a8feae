import { AgentServiceError } from './agent-service.error.js';

/**
 * A run request names an existing run but carries input that run never had (messages the
 * thread does not hold, or approval answers): a `runId` names one run, so new input needs a new
 * one. Nothing was written.
 */
export class RunIdReusedError extends AgentServiceError {
  override readonly name = 'RunIdReusedError';

  /**
   * @param field the request field with the new input (`messages`, `resume`).
   * @param detail what in it is new (`message m-7 is not in the thread`).
   */
  constructor(
    readonly threadId: string,
    readonly runId: string,
    readonly field: string,
    detail: string,
  ) {
    super(
      'RUN_ID_REUSED',
      409,
      `${field}: ${detail}, but run ${runId} of thread ${threadId} already exists; a runId names one run, so send new input under a new runId`,
      { runId, field },
    );
  }
}
