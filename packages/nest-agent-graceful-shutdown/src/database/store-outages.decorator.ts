import { StoreUnavailableError } from '../errors/store-unavailable.error.js';
import { isTransientConnectionError } from './connection-retry.js';

/**
 * Turns "the database could not be reached" from an async method into `StoreUnavailableError`
 * (503 with `Retry-After`), so a request that hits a database restart gets an answer that
 * says to retry, through Nest's own exception layer. Other errors pass unchanged.
 */
export function AnswersStoreOutages(): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const method = descriptor.value as (...args: unknown[]) => Promise<unknown>;
    descriptor.value = async function (this: unknown, ...args: unknown[]) {
      try {
        return await method.apply(this, args);
      } catch (error) {
        if (isTransientConnectionError(error)) throw new StoreUnavailableError();
        throw error;
      }
    };
    return descriptor;
  };
}
