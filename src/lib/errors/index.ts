export { AgentServiceError } from './agent-service.error';
export { InvalidRunInputError } from './invalid-run-input.error';
export { RunInProgressError } from './run-in-progress.error';
export { RunNotFoundError } from './run-not-found.error';
export { ShuttingDownError } from './shutting-down.error';
export { ThreadAccessDeniedError } from './thread-access-denied.error';
export { ThreadNotFoundError } from './thread-not-found.error';
export { LeaseLostError } from './lease-lost.error';
export { ModelCallError, type ModelCallErrorCode } from './model-call.error';
