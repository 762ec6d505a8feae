/**
 * Base of the errors the library raises for a request it refuses. `code` is stable
 * (UPPER_SNAKE) and `status` is the HTTP status an API should answer with.
 */
export abstract class AgentServiceError extends Error {
  abstract readonly code: string;
  abstract readonly status: number;
}
