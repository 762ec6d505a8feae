// The checks the services make of their arguments before anything is read or written, so that a
// value a caller did not validate (`Number('abc')` from a header) is a 400 naming it, never an
// error of the store's driver. Each returns the value it checked.
import { InvalidEventIdError } from '../errors/invalid-event-id.error.js';
import { InvalidIdError } from '../errors/invalid-id.error.js';
import { InvalidWaitError } from '../errors/invalid-wait.error.js';
import { InvalidMultitaskError } from '../errors/invalid-multitask.error.js';
import { MULTITASK_STRATEGIES, type MultitaskStrategy } from '../agent/multitask.js';
import { ID_RULE, isValidId } from './id-rule.js';
import { isValidUserId, USER_ID_RULE } from './text-rule.js';

export { MAX_USER_ID_LENGTH } from './text-rule.js';

/** The longest wait a cancel accepts, in milliseconds: what a timer can hold. */
export const MAX_WAIT_MS = 2_147_483_647;

/** A thread or run id (`isValidId`); `InvalidIdError` naming `field` otherwise. */
export function checkId(field: string, value: unknown): string {
  if (typeof value !== 'string' || !isValidId(value)) throw new InvalidIdError(field, ID_RULE);
  return value;
}

/** `checkId` for an id a caller may leave unset. */
export function checkOptionalId(field: string, value: unknown): string | undefined {
  return value === undefined ? undefined : checkId(field, value);
}

/** The user a service acts for (`isValidUserId`); `InvalidIdError` naming `userId` otherwise. */
export function checkUserId(value: unknown): string {
  if (typeof value !== 'string' || !isValidUserId(value))
    throw new InvalidIdError('userId', USER_ID_RULE);
  return value;
}

/**
 * A `Last-Event-ID` as a number: unset, or an integer from 0 to `Number.MAX_SAFE_INTEGER`.
 * `NaN`, negatives, fractions, `Infinity` and anything not a number are `InvalidEventIdError`.
 */
export function checkEventId(field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw new InvalidEventIdError(field, value);
  return value as number;
}

/** A wait in milliseconds: unset, or an integer from 0 to `maxMs`. */
export function checkWaitMs(value: unknown, maxMs = MAX_WAIT_MS): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > maxMs)
    throw new InvalidWaitError(maxMs);
  return value as number;
}

/** A run request's multitask strategy: unset, or one this version serves; `InvalidMultitaskError` (400) otherwise. */
export function checkMultitask(value: unknown): MultitaskStrategy | undefined {
  if (value === undefined) return undefined;
  if (!MULTITASK_STRATEGIES.includes(value as MultitaskStrategy))
    throw new InvalidMultitaskError(value, MULTITASK_STRATEGIES);
  return value as MultitaskStrategy;
}
