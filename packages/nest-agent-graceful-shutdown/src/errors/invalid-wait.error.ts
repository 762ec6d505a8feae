import { AgentServiceError } from './agent-service.error.js';

/** A cancel's `waitMs` that is not a whole number of milliseconds in range. */
export class InvalidWaitError extends AgentServiceError {
  override readonly name = 'InvalidWaitError';

  /** @param maxMs the longest wait accepted, in milliseconds. */
  constructor(maxMs: number) {
    super('INVALID_WAIT', 400, `waitMs: must be an integer from 0 to ${maxMs}`);
  }
}
