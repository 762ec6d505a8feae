import { AgentServiceError } from './agent-service.error.js';

/** The request names a field whose value cannot be used. */
export class InvalidRunInputError extends AgentServiceError {
  override readonly name = 'InvalidRunInputError';

  /** @param field the offending field, as a path (`messages[0].id`). */
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super('VALIDATION_FAILED', 422, `${field}: ${problem}`);
  }
}
