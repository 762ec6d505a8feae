/** What each value of an option group must be, and the error a value that is not gets. */
export interface OptionRule {
  /** True when `value` can be used. */
  accepts(value: unknown): boolean;
  /** What a value must be, for the message: `a whole number ≥ 0 (0: no limit)`. */
  says: string;
  /** The error class thrown. @default RangeError */
  error?: new (message: string) => Error;
}

/**
 * Applies a group's defaults to the values given, each checked against `rule`; a key the group
 * does not have is refused too, so a typo fails at once instead of being ignored.
 *
 * @param group the group's name as users write it (`limits`, `reconnect`), for the messages
 * @example
 * resolveOptionGroup('reconnect', { timeoutMs: 60_000 }, { timeoutMs: 1_000 }, { accepts: isMs, says: 'a number of milliseconds ≥ 0' });
 */
export function resolveOptionGroup<T extends object>(group: string, defaults: Readonly<Required<T>>, options: T | undefined, rule: OptionRule): Required<T> {
  const resolved = { ...defaults };
  const Refusal = rule.error ?? RangeError;
  for (const [key, value] of Object.entries(options ?? {})) {
    if (!Object.hasOwn(defaults, key)) {
      throw new Refusal(`${group}.${key} is not an option; ${group} takes ${Object.keys(defaults).join(', ')}`);
    }
    if (value === undefined) continue;
    if (!rule.accepts(value)) throw new Refusal(`${group}.${key} must be ${rule.says}, got ${String(value)}`);
    (resolved as Record<string, unknown>)[key] = value;
  }
  return resolved;
}
