import { AgentServiceError } from './agent-service.error.js';

/** A run request's `multitask` that names no strategy this version serves. */
export class InvalidMultitaskError extends AgentServiceError {
  override readonly name = 'InvalidMultitaskError';

  /** @param served the strategies accepted. */
  constructor(value: unknown, served: readonly string[]) {
    super(
      'INVALID_MULTITASK',
      400,
      `multitask: must be one of ${served.join(', ')}, got ${JSON.stringify(String(value)).slice(0, 80)}`,
      {
        field: 'multitask',
      },
    );
  }
}
