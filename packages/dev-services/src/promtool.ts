import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { findExecutable, isExecutable } from './executables';
import { REPO_ROOT } from './repo-root';
import { sharedUntilFailure } from './shared-until-failure';

const execFileAsync = promisify(execFile);

/**
 * Debian ships promtool only inside the `prometheus` package (19 MB), whose install would also
 * create a user, pull in a web UI's JavaScript libraries and start a Prometheus server. promtool
 * is one static binary: it is taken out of the downloaded package instead, never installed.
 */
const DEBIAN_PACKAGE = 'prometheus';

/** Under node_modules so it is never committed; one copy per checkout. */
const CACHE_DIR = resolve(REPO_ROOT, 'node_modules', '.cache', 'promtool');
const CACHED_BINARY = join(CACHE_DIR, 'bin', 'promtool');

/** A 19 MB download; past 5 minutes the mirror is unreachable, not slow. */
const APT_TIMEOUT_MS = 300_000;

async function run(command: string, args: string[], cwd: string, fix: string): Promise<void> {
  try {
    await execFileAsync(command, args, {
      cwd,
      timeout: APT_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    const tail = (stderr || message).trim().split('\n').slice(-10).join('\n');
    throw new Error(`\`${command} ${args.join(' ')}\` failed: ${fix}\n${tail}`);
  }
}

async function download(work: string): Promise<void> {
  // apt's sandbox user (_apt) cannot write into our private work directory.
  const args = [
    '-o',
    `APT::Sandbox::User=${process.getuid?.() === 0 ? 'root' : '_apt'}`,
    'download',
    DEBIAN_PACKAGE,
  ];
  try {
    await run('apt-get', args, work, 'no package lists yet?');
  } catch (error) {
    // A fresh machine has no package lists: as root, fetch them once and retry.
    if (process.getuid?.() !== 0) {
      throw new Error(
        `promtool not found and \`apt-get download ${DEBIAN_PACKAGE}\` failed: run \`apt-get update\` as root, or install promtool yourself.\n${(error as Error).message}`,
      );
    }
    await run('apt-get', ['update'], work, 'check the network and /etc/apt/sources.list.');
    await run(
      'apt-get',
      args,
      work,
      `is \`${DEBIAN_PACKAGE}\` in your Debian release (\`apt-cache policy ${DEBIAN_PACKAGE}\`)?`,
    );
  }
}

async function extract(work: string): Promise<void> {
  const deb = (await readdir(work)).find((name) => name.endsWith('.deb'));
  if (!deb)
    throw new Error(
      `apt-get download ${DEBIAN_PACKAGE} wrote no .deb into ${work}: run it by hand to see why.`,
    );
  // dpkg-deb streams the package's files; tar takes the one binary out of them.
  await run(
    'sh',
    ['-c', `dpkg-deb --fsys-tarfile "$1" | tar -x ./usr/bin/promtool`, 'sh', deb],
    work,
    'are dpkg-deb and tar installed?',
  );
  await mkdir(join(work, 'bin'));
  await rename(join(work, 'usr', 'bin', 'promtool'), join(work, 'bin', 'promtool'));
}

async function install(): Promise<string> {
  const onPath = findExecutable('promtool', ['/usr/bin', '/usr/local/bin']);
  if (onPath) return onPath;
  if (isExecutable(CACHED_BINARY)) return CACHED_BINARY;
  await mkdir(CACHE_DIR, { recursive: true });
  // A private work directory beside the target, so the final rename is atomic on one filesystem.
  const work = await mkdtemp(join(CACHE_DIR, '.fetch-'));
  try {
    await download(work);
    await extract(work);
    try {
      await rename(join(work, 'bin'), join(CACHE_DIR, 'bin'));
    } catch (error) {
      // Another process (a parallel test worker) finished first: its copy is as good as ours.
      if (!isExecutable(CACHED_BINARY)) throw error;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  if (!isExecutable(CACHED_BINARY))
    throw new Error(
      `promtool is missing from ${CACHE_DIR} after the fetch: delete that directory and retry.`,
    );
  return CACHED_BINARY;
}

/**
 * The path of Prometheus's `promtool`, to check and unit-test the chart's alerting rules and
 * the dashboard's queries offline. A `promtool` on `PATH` wins; otherwise the first call on a
 * machine downloads Debian's `prometheus` package with `apt-get download` (19 MB, seconds; an
 * `apt-get update` first, as root, when the package lists are missing) and extracts only
 * `promtool` into `node_modules/.cache/promtool/`; later calls are a few file checks. Parallel
 * processes are safe (private work directory, atomic rename), and concurrent calls in one
 * process share one fetch. Needs apt-get, dpkg-deb and tar (Debian).
 *
 * @example
 * const promtool = await ensurePromtool();
 * execFile(promtool, ['check', 'rules', 'rules.yaml']);
 */
export const ensurePromtool: () => Promise<string> = sharedUntilFailure(install);
