import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findExecutable, isExecutable } from './executables';
import { sharedUntilFailure } from './shared-until-failure';

const execFileAsync = promisify(execFile);

/** Debian's layout: one `/usr/lib/postgresql/<major>/bin` per installed server version. */
const DEBIAN_POSTGRES_ROOT = '/usr/lib/postgresql';

/** apt can take minutes on a cold cache; past 10 minutes something is stuck, not slow. */
const APT_TIMEOUT_MS = 600_000;

/** Two test workers may race for dpkg's lock; waiting for it beats failing. In seconds. */
const DPKG_LOCK_WAIT_S = 300;

/** A directory holding the server binaries we run, not just the client tools. */
function hasServerBinaries(dir: string): boolean {
  return (
    isExecutable(join(dir, 'postgres')) &&
    isExecutable(join(dir, 'initdb')) &&
    isExecutable(join(dir, 'pg_ctl'))
  );
}

/**
 * The bin directory of the highest installed PostgreSQL server (the one holding `postgres`,
 * `initdb` and `pg_ctl`), or `undefined` when none is installed. Looks in Debian's
 * `/usr/lib/postgresql/<major>/bin` first, then at `pg_config --bindir`.
 */
export function findPostgresBinDir(): string | undefined {
  if (existsSync(DEBIAN_POSTGRES_ROOT)) {
    const majors = readdirSync(DEBIAN_POSTGRES_ROOT)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    for (const major of majors) {
      const dir = join(DEBIAN_POSTGRES_ROOT, major, 'bin');
      if (hasServerBinaries(dir)) return dir;
    }
  }
  try {
    // pg_config from libpq-dev alone points at /usr/bin, which has no server: hence the check.
    const dir = execFileSync('pg_config', ['--bindir'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return dir && hasServerBinaries(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Like {@link findPostgresBinDir}, but throws an error saying what to install when there is none. */
export function postgresBinDir(): string {
  const dir = findPostgresBinDir();
  if (!dir) {
    throw new Error(
      'PostgreSQL server binaries (postgres, initdb, pg_ctl) not found: run `apt-get install -y postgresql` as root, ' +
        'or call ensureLocalServicePackages() first.',
    );
  }
  return dir;
}

/** The `redis-server` executable on `PATH` (or in /usr/bin, /usr/sbin), or `undefined` when not installed. */
export function findRedisServer(): string | undefined {
  return findExecutable('redis-server', ['/usr/bin', '/usr/sbin', '/usr/local/bin']);
}

/** Like {@link findRedisServer}, but throws an error saying what to install when there is none. */
export function redisServerBinary(): string {
  const binary = findRedisServer();
  if (!binary) {
    throw new Error(
      'redis-server not found: run `apt-get install -y redis-server` as root, or call ensureLocalServicePackages() first.',
    );
  }
  return binary;
}

/** The `nginx` executable (Debian puts it in /usr/sbin), or `undefined` when not installed. */
export function findNginx(): string | undefined {
  return findExecutable('nginx', ['/usr/sbin', '/usr/bin', '/usr/local/sbin']);
}

/** Like {@link findNginx}, but throws an error saying what to install when there is none. */
export function nginxBinary(): string {
  const binary = findNginx();
  if (!binary)
    throw new Error(
      'nginx not found: run `apt-get install -y nginx` as root, or call ensureLocalServicePackages() first.',
    );
  return binary;
}

/** Debian's `chromium` (a headless browser for the console's tests), or `undefined` when not installed. */
export function findChromium(): string | undefined {
  return findExecutable('chromium', ['/usr/bin', '/usr/local/bin']);
}

/** Like {@link findChromium}, but throws an error saying what to install when there is none. */
export function chromiumBinary(): string {
  const binary = findChromium();
  if (!binary)
    throw new Error(
      'chromium not found: run `apt-get install -y chromium` as root, or call ensureLocalServicePackages() first.',
    );
  return binary;
}

async function apt(args: string[]): Promise<void> {
  try {
    await execFileAsync('apt-get', ['-o', `DPkg::Lock::Timeout=${DPKG_LOCK_WAIT_S}`, ...args], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: APT_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    const tail = `${stdout ?? ''}${stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`\`apt-get ${args.join(' ')}\` failed; run it by hand to see why.\n${tail}`);
  }
}

/**
 * Installs the named Debian packages with apt-get as root (minutes on a cold cache); otherwise
 * throws an error naming the command to run. `purpose` says in that error what they are for.
 */
export async function installDebianPackages(
  missing: readonly string[],
  purpose: string,
): Promise<void> {
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Missing Debian packages for ${purpose}: ${missing.join(', ')}. ` +
        `Install them as root: \`apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}\`.`,
    );
  }
  console.log(`local-services: installing ${missing.join(', ')} with apt-get (once per machine)…`);
  await apt(['update']);
  await apt(['install', '-y', '--no-install-recommends', ...missing]);
}

async function install(): Promise<void> {
  const missing: string[] = [];
  if (!findPostgresBinDir()) missing.push('postgresql');
  if (!findRedisServer()) missing.push('redis-server');
  if (!findNginx()) missing.push('nginx');
  if (!findChromium()) missing.push('chromium');
  await installDebianPackages(missing, 'the local test services');
}

/**
 * Makes sure the PostgreSQL server, `redis-server`, `nginx` and `chromium` are installed. As root, installs
 * the missing Debian packages (`postgresql`, `redis-server`, `nginx`, `chromium`) with apt-get, which can take minutes
 * the first time; otherwise throws an error naming the packages to install. Cheap once
 * installed (a few file checks), and concurrent calls in one process share one install.
 * Packages may start their own default servers (5432, 6379, 80); our servers never use them.
 */
export const ensureLocalServicePackages: () => Promise<void> = sharedUntilFailure(install);
