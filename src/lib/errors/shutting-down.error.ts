import { AgentServiceError } from './agent-service.error';

/** A new run was refused because this instance is shutting down; retry on another instance. */
export class ShuttingDownError extends AgentServiceError {
  override readonly name = 'ShuttingDownError';
  readonly code = 'SHUTTING_DOWN';
  readonly status = 503;

  /** @param retryAfterSeconds when the client should try again, in seconds. */
  constructor(readonly retryAfterSeconds: number) {
    super(`this instance is shutting down; retry the same request in ${retryAfterSeconds} s`);
  }
}
