import { AgentServiceError } from './agent-service.error.js';

/** A new run was refused because this instance is shutting down; retry on another instance. */
export class ShuttingDownError extends AgentServiceError {
  override readonly name = 'ShuttingDownError';

  /** @param retryAfterSeconds when the client should try again, in seconds. */
  constructor(readonly retryAfterSeconds: number) {
    super(
      'SHUTTING_DOWN',
      503,
      `this instance is shutting down; retry the same request in ${retryAfterSeconds} s`,
    );
  }
}
