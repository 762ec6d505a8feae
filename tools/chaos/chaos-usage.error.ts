/**
 * A command line `npm run chaos` cannot run: the message names the option and what it takes.
 *
 * @example
 * throw new ChaosUsageError('--seconds must be an integer from 20 to 3600, got "ten"');
 */
export class ChaosUsageError extends Error {
  override readonly name = 'ChaosUsageError';
  readonly code = 'CHAOS_USAGE';

  constructor(detail: string) {
    super(
      `${detail}. Usage: npm run chaos -- [--seed N] [--seconds S] [--clients N] [--dry-run] [--logs DIR]`,
    );
  }
}
