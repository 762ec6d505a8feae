import { AgentServiceError } from './agent-service.error.js';

/** A thread, run or user id a service was given that no store can hold, refused before any read. */
export class InvalidIdError extends AgentServiceError {
  override readonly name = 'InvalidIdError';

  /**
   * @param field the argument or request field (`threadId`, `runId`, `userId`); the message starts with it.
   * @param rule what the id must be (`ID_RULE` for thread and run ids).
   */
  constructor(
    readonly field: string,
    rule: string,
  ) {
    super('INVALID_ID', 400, `${field}: ${rule}`);
  }
}
