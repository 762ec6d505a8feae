/** What a value of an option must be, and the error a value that is not gets. */
export interface OptionRule {
  /** True when `value` can be used. */
  accepts(value: unknown): boolean;
  /** What a value must be, for the message: `a whole number ≥ 0 (0: no limit)`. */
  says: string;
  /** The error class thrown. @default RangeError */
  error?: new (message: string) => Error;
}

/**
 * One option of a group: the rule its value must meet, and its default, which is one of
 * - `default: value`: the value when none is given;
 * - `default: undefined`: none, the option stays undefined and its reader decides (`signals.redisUrl`);
 * - `derive: (values) => value`: computed from the group's other values, their defaults applied
 *   (`leases.renewIntervalMs` is a third of `leases.ttlMs`); a derived value is not checked
 *   against the rule, so the group's cross-field checks name both options.
 */
export type OptionDeclaration<T extends object, K extends keyof T> =
  | { readonly rule: OptionRule; readonly default: T[K]; readonly derive?: never }
  | {
      readonly rule: OptionRule;
      readonly derive: (values: Readonly<Required<T>>) => Exclude<T[K], undefined>;
      readonly default?: never;
    };

/** Every option of the group `T`, each declared once, in the order messages list them: leaving one out fails to compile. */
export type OptionGroupDeclaration<T extends object> = {
  readonly [K in keyof Required<T>]: OptionDeclaration<T, K>;
};

/** The values of group `T` declared by `D`, resolved: set, except the options declared with `default: undefined`. */
export type ResolvedOptionGroup<T extends object, D extends OptionGroupDeclaration<T>> = {
  [K in keyof Required<T>]: D[K] extends { readonly default: undefined }
    ? T[K]
    : Exclude<T[K], undefined>;
};

/**
 * Applies a group's defaults to the values given, each given value checked against its option's
 * rule; a key the group does not have is refused too (a `TypeError` listing the group's keys), so
 * a typo fails at once instead of being ignored. Array defaults are copied, so no caller shares (or changes) the declaration's.
 *
 * @typeParam T the group's options, as its interface declares them (inferred from `options`)
 * @typeParam D the group's declaration: which options stay undefined without a value
 * @param group the group's name as users write it (`leases`, `reconnect`), for the messages
 * @throws the rule's error (`RangeError` unless it names another) for a bad value: `<group>.<key> must be …, got …`
 * @example
 * const LEASES = {
 *   ttlMs: { rule: POSITIVE_MILLISECONDS, default: 15_000 },
 *   renewIntervalMs: { rule: POSITIVE_MILLISECONDS, derive: ({ ttlMs }) => ttlMs / 3 },
 *   recoverOrphanedRunsOnBoot: { rule: BOOLEAN, default: undefined },
 * } satisfies OptionGroupDeclaration<LeaseOptions>;
 * resolveOptionGroup('leases', LEASES, { ttlMs: 3_000 }); // { ttlMs: 3000, renewIntervalMs: 1000, recoverOrphanedRunsOnBoot: undefined }
 */
export function resolveOptionGroup<T extends object, D extends OptionGroupDeclaration<T>>(
  group: string,
  declaration: D,
  options: T | undefined,
): ResolvedOptionGroup<T, D> {
  const given = (options ?? {}) as Record<string, unknown>;
  const declared = declaration as Readonly<
    Record<string, OptionDeclaration<Record<string, unknown>, string>>
  >;
  for (const [key, value] of Object.entries(given)) {
    if (!Object.hasOwn(declared, key)) {
      throw new TypeError(
        `${group}.${key} is not an option; ${group} takes ${Object.keys(declared).join(', ')}`,
      );
    }
    const { rule } = declared[key];
    if (value !== undefined && !rule.accepts(value)) {
      throw new (rule.error ?? RangeError)(
        `${group}.${key} must be ${rule.says}, got ${describeValue(value)}`,
      );
    }
  }
  const resolved: Record<string, unknown> = {};
  for (const [key, option] of Object.entries(declared)) {
    resolved[key] =
      given[key] !== undefined ? given[key] : option.derive ? undefined : copied(option.default);
  }
  for (const [key, option] of Object.entries(declared)) {
    if (option.derive && resolved[key] === undefined) resolved[key] = option.derive(resolved);
  }
  return resolved as ResolvedOptionGroup<T, D>;
}

/**
 * A group whose options all follow one rule and all have a value as default (`limits`,
 * `reconnect`).
 *
 * @example
 * const RECONNECT = uniformOptionGroup<ReconnectOptions>({ timeoutMs: 60_000, maxDelayMs: 5_000 }, millisecondsAtLeastZero());
 * resolveOptionGroup('reconnect', RECONNECT, { timeoutMs: 1_000 }); // { timeoutMs: 1000, maxDelayMs: 5000 }
 */
export function uniformOptionGroup<T extends object>(
  defaults: Readonly<Required<T>>,
  rule: OptionRule,
): UniformOptionGroup<T> {
  const entries = Object.entries(defaults).map(([key, value]) => [key, { rule, default: value }]);
  return Object.freeze(Object.fromEntries(entries)) as UniformOptionGroup<T>;
}

/** The declaration `uniformOptionGroup` makes: every option of `T` with one rule and a value as default. */
export type UniformOptionGroup<T extends object> = {
  readonly [K in keyof Required<T>]: {
    readonly rule: OptionRule;
    readonly default: Required<T>[K];
  };
};

function copied(value: unknown): unknown {
  return Array.isArray(value) ? [...value] : value;
}

/** The value as a message shows it: strings quoted, other primitives as they print, functions and objects by kind. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return `[${value.map(describeValue).join(', ')}]`;
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}
