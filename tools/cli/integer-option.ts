/**
 * The value of `--<name>` in `args`, an integer from `min` to `max`, or undefined when the
 * option is absent. A value missing or out of range throws the error `refuse` makes, naming
 * the option, its range and what was given, so each command keeps its own usage error.
 *
 * @example
 * integerOption(['--minutes', '15'], 'minutes', 1, 1_440, (message) => new SoakUsageError(message)); // 15
 */
export function integerOption(
  args: readonly string[],
  name: string,
  min: number,
  max: number,
  refuse: (message: string) => Error,
): number | undefined {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return undefined;
  const raw = args[at + 1];
  const value = Number(raw);
  if (raw === undefined || !/^\d+$/.test(raw) || value < min || value > max) {
    throw refuse(
      `--${name} must be an integer from ${min} to ${max}, got ${raw === undefined ? 'nothing' : JSON.stringify(raw)}`,
    );
  }
  return value;
}
