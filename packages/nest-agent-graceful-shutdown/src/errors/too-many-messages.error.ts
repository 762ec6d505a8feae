import { AgentServiceError } from './agent-service.error.js';

/**
 * A request adds more new messages than allowed (`limits.maxMessagesPerRequest`): nothing was
 * written. Only messages the thread does not hold yet count, so a client that resends the
 * whole conversation is never refused for it. The same request cannot succeed later, so
 * `Retry-After` is long: a client that honours it gives up instead of looping.
 */
export class TooManyMessagesError extends AgentServiceError {
  override readonly name = 'TooManyMessagesError';

  /**
   * @param added how many new messages the request holds.
   * @param limit the most new messages one request may add.
   * @param retryAfterSeconds `Retry-After`, in seconds. @default 3600
   */
  constructor(
    readonly added: number,
    readonly limit: number,
    readonly retryAfterSeconds = 3600,
  ) {
    super(
      'TOO_MANY_MESSAGES',
      429,
      `messages: the request adds ${added} new messages, more than the ${limit} allowed per request; send them in smaller requests`,
    );
  }
}
