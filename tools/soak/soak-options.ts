import { randomInt } from 'node:crypto';
import { SoakUsageError } from './soak-usage.error';
import { integerOption } from '../cli/integer-option';

/** What `npm run soak` was asked to do. */
export interface SoakCommand {
  /** How long the load lasts, in minutes. Default: 15. */
  minutes: number;
  /** Time between two SIGTERM-and-restarts of the instance, in seconds; 0: never. Default: 270 (3 restarts in 15 minutes, lives of 4.5 minutes). */
  restartEverySeconds: number;
  /** How long into each instance life memory and handles are left out of the fit, in seconds. Default: 120. */
  warmupSeconds: number;
  /** Simulated users, each with its own thread. Default: 8. */
  clients: number;
  /** Time between two samples of the service, in seconds. Default: 2. */
  sampleEverySeconds: number;
  /** The seed of the users' answers, cancels and joins: given, or picked at random (and printed). */
  seed: number;
  /** Where the instance's logs, the samples and the audit go; default under `demo-output/soak/`. */
  logDir?: string;
  /** Also write the chart into `docs/images/`. */
  publish: boolean;
}

const FLAGS = ['--publish'];
const VALUED = [
  '--minutes',
  '--restart-every-s',
  '--warmup-s',
  '--clients',
  '--sample-every-s',
  '--seed',
  '--logs',
];

const integer = (args: string[], name: string, min: number, max: number): number | undefined =>
  integerOption(args, name, min, max, (message) => new SoakUsageError(message));

/**
 * Reads the command line (`process.argv.slice(2)`).
 *
 * @throws SoakUsageError for an unknown option or a value out of range.
 * @example
 * parseSoakCommand(['--minutes', '1', '--restart-every-s', '20']); // { minutes: 1, restartEverySeconds: 20, warmupSeconds: 120, … }
 */
export function parseSoakCommand(args: string[]): SoakCommand {
  for (let i = 0; i < args.length; i++) {
    if (FLAGS.includes(args[i])) continue;
    if (!VALUED.includes(args[i]))
      throw new SoakUsageError(`unknown argument ${JSON.stringify(args[i])}`);
    i++;
  }
  const logsAt = args.indexOf('--logs');
  if (logsAt >= 0 && !args[logsAt + 1]) throw new SoakUsageError('--logs needs a directory');
  const restartEverySeconds = integer(args, 'restart-every-s', 0, 86_400) ?? 270;
  if (restartEverySeconds > 0 && restartEverySeconds < 10)
    throw new SoakUsageError(
      `--restart-every-s must be 0 (never) or at least 10, got ${restartEverySeconds}`,
    );
  return {
    minutes: integer(args, 'minutes', 1, 720) ?? 15,
    restartEverySeconds,
    warmupSeconds: integer(args, 'warmup-s', 0, 3600) ?? 120,
    clients: integer(args, 'clients', 1, 100) ?? 8,
    sampleEverySeconds: integer(args, 'sample-every-s', 1, 60) ?? 2,
    seed: integer(args, 'seed', 0, 2 ** 32 - 1) ?? randomInt(0, 2 ** 31),
    publish: args.includes('--publish'),
    ...(logsAt >= 0 ? { logDir: args[logsAt + 1] } : {}),
  };
}
