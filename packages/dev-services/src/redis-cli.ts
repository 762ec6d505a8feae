import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { redisServerBinary } from './debian-packages';

const run = promisify(execFile);

/** How long one `redis-cli` call may take, in ms (`--cluster create` included). */
const CLI_TIMEOUT_MS = 30_000;

/** `redis-cli`, installed beside `redis-server` (Debian's `redis-tools`, a dependency of `redis-server`). */
export function redisCliBinary(): string {
  return join(dirname(redisServerBinary()), 'redis-cli');
}

/**
 * Runs `redis-cli` against 127.0.0.1:`port` (or with `port` undefined, with the arguments as
 * given) and returns its standard output; throws with its output when it fails.
 */
export async function redisCli(port: number | undefined, ...args: string[]): Promise<string> {
  const target = port === undefined ? [] : ['-h', '127.0.0.1', '-p', String(port)];
  try {
    const { stdout } = await run(redisCliBinary(), [...target, ...args], {
      timeout: CLI_TIMEOUT_MS,
      encoding: 'utf8',
    });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `redis-cli ${args.join(' ')} failed: ${(error as Error).message}\n${stdout}${stderr}`,
    );
  }
}
