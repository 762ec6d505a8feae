import type { OptionRule } from './option-group.js';

/** A finite number of milliseconds ≥ 0; `zeroMeans` says what 0 does, when it does something apart. */
export function millisecondsAtLeastZero(zeroMeans?: string): OptionRule {
  return {
    accepts: (value) => isFiniteNumber(value) && value >= 0,
    says: `a finite number of milliseconds ≥ 0${meaningOfZero(zeroMeans)}`,
  };
}

/** A finite number of milliseconds > 0. */
export const POSITIVE_MILLISECONDS: OptionRule = {
  accepts: (value) => isFiniteNumber(value) && value > 0,
  says: 'a finite number of milliseconds > 0',
};

/** A whole number of milliseconds > 0, for a value that reaches a store taking whole milliseconds only (Redis `PX`). */
export const POSITIVE_WHOLE_MILLISECONDS: OptionRule = {
  accepts: (value) => Number.isInteger(value) && (value as number) > 0,
  says: 'a whole number of milliseconds > 0',
};

/** A whole number ≥ 0 (seconds, counts); `zeroMeans` says what 0 does, when it does something apart. */
export function wholeNumberAtLeastZero(zeroMeans?: string): OptionRule {
  return {
    accepts: (value) => Number.isInteger(value) && (value as number) >= 0,
    says: `a whole number ≥ 0${meaningOfZero(zeroMeans)}`,
  };
}

/** `true` or `false`. */
export const BOOLEAN: OptionRule = {
  accepts: (value) => typeof value === 'boolean',
  says: 'true or false',
  error: TypeError,
};

/** A string with at least one character. */
export const NON_EMPTY_STRING: OptionRule = {
  accepts: (value) => typeof value === 'string' && value.length > 0,
  says: 'a non-empty string',
  error: TypeError,
};

/** `true`, or the settings of the PostgreSQL signal bus: an object whose only key may be `channelPrefix`, a string. */
export const POSTGRES_SIGNALS: OptionRule = {
  accepts: (value) =>
    value === true ||
    (typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.entries(value).every(
        ([key, setting]) =>
          key === 'channelPrefix' && (setting === undefined || typeof setting === 'string'),
      )),
  says: 'true or { channelPrefix?: string }',
  error: TypeError,
};

/** A version-change policy: `'adapt'`, `'refuse'`, `'skip-pending'` or a function that decides. */
export const VERSION_CHANGE_POLICY: OptionRule = {
  accepts: (value) =>
    typeof value === 'function' ||
    value === 'adapt' ||
    value === 'refuse' ||
    value === 'skip-pending',
  says: "'adapt', 'refuse', 'skip-pending' or a function",
  error: TypeError,
};

/** A function, such as a template. */
export const FUNCTION: OptionRule = {
  accepts: (value) => typeof value === 'function',
  says: 'a function',
  error: TypeError,
};

/**
 * One of the listed strings, e.g. `'client' or 'auto'`.
 *
 * @example
 * oneOf('save', 'discard').accepts('keep'); // false
 */
export function oneOf(...choices: readonly string[]): OptionRule {
  const quoted = choices.map((choice) => `'${choice}'`);
  return {
    accepts: (value) => typeof value === 'string' && choices.includes(value),
    says:
      quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : quoted.join(''),
  };
}

/**
 * An object with the listed methods: an implementation of an interface the option names.
 *
 * @param what the interface, for the message: `a SignalBus`
 */
export function objectWithMethods(what: string, methods: readonly string[]): OptionRule {
  return {
    accepts: (value) =>
      typeof value === 'object' &&
      value !== null &&
      methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function'),
    says: `${what} (an object with ${methods.join(', ')})`,
    error: TypeError,
  };
}

/** An array whose every item the rule accepts; `items` says what the items are: `AgentHook objects`. */
export function arrayOf(items: string, accepts: (item: unknown) => boolean): OptionRule {
  return {
    accepts: (value) => Array.isArray(value) && value.every(accepts),
    says: `an array of ${items}`,
    error: TypeError,
  };
}

function meaningOfZero(zeroMeans: string | undefined): string {
  return zeroMeans ? ` (0: ${zeroMeans})` : '';
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
