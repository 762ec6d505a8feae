/**
 * A command line `npm run soak` cannot run: the message names the option and what it takes.
 *
 * @example
 * throw new SoakUsageError('--minutes must be an integer from 1 to 720, got "ten"');
 */
export class SoakUsageError extends Error {
  override readonly name = 'SoakUsageError';
  readonly code = 'SOAK_USAGE';

  constructor(detail: string) {
    super(
      `${detail}. Usage: npm run soak -- [--minutes M] [--restart-every-s S] [--warmup-s S] [--clients N] [--sample-every-s S] [--seed N] [--logs DIR] [--publish]`,
    );
  }
}
