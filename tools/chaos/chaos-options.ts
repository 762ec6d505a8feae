import { randomInt } from 'node:crypto';
import { ChaosUsageError } from './chaos-usage.error';
import { integerOption } from '../cli/integer-option';

/** What `npm run chaos` was asked to do. */
export interface ChaosCommand {
  /** The seed: given, or picked at random (and printed). */
  seed: number;
  /** The window of faults and new turns, in seconds. Default: 90. */
  seconds: number;
  /** Simulated users, each with its own thread. Default: 12. */
  clients: number;
  /** Print the schedule and exit, starting nothing. */
  dryRun: boolean;
  /** Where the instances' logs and the audit go; default under `demo-output/chaos/`. */
  logDir?: string;
}

/** The largest seed: the generator takes 32-bit integers. */
const MAX_SEED = 2 ** 32 - 1;

const integer = (args: string[], name: string, min: number, max: number): number | undefined =>
  integerOption(args, name, min, max, (message) => new ChaosUsageError(message));

/**
 * Reads the command line (`process.argv.slice(2)`).
 *
 * @throws ChaosUsageError for an unknown option or a value out of range.
 * @example
 * parseChaosCommand(['--seed', '42', '--seconds', '60']); // { seed: 42, seconds: 60, clients: 12, dryRun: false }
 */
export function parseChaosCommand(args: string[]): ChaosCommand {
  const known = new Set(['--seed', '--seconds', '--clients', '--logs', '--dry-run']);
  for (let i = 0; i < args.length; i++) {
    if (!known.has(args[i]))
      throw new ChaosUsageError(`unknown argument ${JSON.stringify(args[i])}`);
    if (args[i] !== '--dry-run') i++;
  }
  const logsAt = args.indexOf('--logs');
  if (logsAt >= 0 && !args[logsAt + 1]) throw new ChaosUsageError('--logs needs a directory');
  return {
    seed: integer(args, 'seed', 0, MAX_SEED) ?? randomInt(0, 2 ** 31),
    seconds: integer(args, 'seconds', 20, 3600) ?? 90,
    clients: integer(args, 'clients', 1, 500) ?? 12,
    dryRun: args.includes('--dry-run'),
    ...(logsAt >= 0 ? { logDir: args[logsAt + 1] } : {}),
  };
}
