import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { mainOf, type ServiceBuild } from '../bench/service-build';
import { ensureNodeRuntime, REPO_ROOT, run } from 'dev-services';
import type { ReleaseDescription } from './previous-release';

/** One folder per release, under node_modules so it is never committed. */
const CACHE_ROOT = join(REPO_ROOT, 'node_modules', '.cache', 'releases');

/** An install of a whole release from the registry, or its build: past 10 minutes something is stuck. */
const STEP_TIMEOUT_MS = 600_000;

/** A built release, and what its build found. */
export interface ReleaseBuild extends ServiceBuild {
  /** Whether the release's better-sqlite3 native addon exists: without it, any load of the driver throws. */
  sqliteAddonBuilt: boolean;
  /** False when the build was taken from the cache. */
  builtNow: boolean;
}

/** Written last, outside the checkout (which stays clean): without it, the folder is a half-finished build, done again. */
interface BuildMarker {
  version: string;
  commit: string;
  node: string;
  installMs: number;
  buildMs: number;
}

const execFileAsync = promisify(execFile);

const git = (args: string[], fix: string) =>
  run('git', ['-C', REPO_ROOT, ...args], { cwd: REPO_ROOT, fix });

/**
 * The built service of an earlier `release` of this repository, ready to spawn: a detached
 * `git worktree` of its commit in `node_modules/.cache/releases/<version>/source`, installed
 * with `npm ci --ignore-scripts` and built with its own `npm run build`, both on the release's
 * Node. Cached: a later call returns at once when the build marker and `dist/main.js` exist.
 * Install scripts stay off: the release runs on PostgreSQL here, so its better-sqlite3 addon
 * (a compile of about 100 s) is never needed; {@link ReleaseBuild.sqliteAddonBuilt} says whether it
 * exists. Throws with the fix when the commit is not in this clone. Not safe for two processes
 * building the same release at once.
 *
 * @example
 * const previous = await ensureReleaseBuild(PREVIOUS_RELEASE, console.log);
 * await cluster.spawn('old-1', previous);
 */
export async function ensureReleaseBuild(
  release: ReleaseDescription,
  log: (line: string) => void = () => undefined,
): Promise<ReleaseBuild> {
  const dir = join(CACHE_ROOT, release.version);
  const checkout = join(dir, 'source');
  const markerFile = join(dir, 'build-complete.json');
  const node = await ensureNodeRuntime(release.nodeMajor);
  const nodeVersion = (await execFileAsync(node, ['--version'])).stdout.trim();
  const build = (builtNow: boolean): ReleaseBuild => ({
    release: `${release.version} (${release.commit})`,
    dir: checkout,
    node,
    nodeVersion,
    sqliteAddonBuilt: existsSync(
      join(checkout, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
    ),
    builtNow,
  });
  const commit = await resolveCommit(release);
  if (existsSync(mainOf(build(false))) && markerFor(markerFile)?.commit === commit)
    return build(false);

  log(`building release ${release.version} (${release.commit}) in ${checkout}`);
  await mkdir(dir, { recursive: true });
  await rm(markerFile, { force: true });
  // A half-finished checkout from an earlier attempt: unregister it and start again.
  if (existsSync(checkout))
    await git(['worktree', 'remove', '--force', checkout], 'remove the folder by hand').catch(
      () => undefined,
    );
  await rm(checkout, { recursive: true, force: true });
  await git(['worktree', 'prune'], 'run `git worktree prune` by hand');
  await git(
    ['worktree', 'add', '--detach', checkout, commit],
    `check that ${checkout} can be written`,
  );

  const env = releaseEnv(node);
  let began = performance.now();
  await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: checkout,
    env,
    timeoutMs: STEP_TIMEOUT_MS,
    fix: `check that the npm registry is reachable; the release's lockfile is ${join(checkout, 'package-lock.json')}`,
  });
  const installMs = performance.now() - began;
  log(`release ${release.version} installed in ${Math.round(installMs / 1000)} s`);
  began = performance.now();
  await run('npm', ['run', 'build'], {
    cwd: checkout,
    env,
    timeoutMs: STEP_TIMEOUT_MS,
    fix: `run \`npm run build\` in ${checkout} to see why`,
  });
  const buildMs = performance.now() - began;
  log(`release ${release.version} built in ${Math.round(buildMs / 1000)} s`);

  const marker: BuildMarker = {
    version: release.version,
    commit,
    node: nodeVersion,
    installMs,
    buildMs,
  };
  await writeFile(markerFile, `${JSON.stringify(marker, null, 2)}\n`);
  return build(true);
}

/** The full commit id of `release`, checked against its version; throws with the fix when the clone lacks it. */
async function resolveCommit(release: ReleaseDescription): Promise<string> {
  try {
    await git(['cat-file', '-e', `${release.commit}^{commit}`], '');
  } catch {
    throw new Error(
      `commit ${release.commit} (release ${release.version}) is not in this clone (${REPO_ROOT}): ` +
        'the upgrade proof builds the previous release from it; fetch the full history (`git fetch --unshallow`, or a CI checkout with fetch-depth 0).',
    );
  }
  const manifest = await gitOutput([
    'show',
    `${release.commit}:packages/nest-agent-graceful-shutdown/package.json`,
  ]);
  const { version } = JSON.parse(manifest) as { version: string };
  if (version !== release.version)
    throw new Error(
      `commit ${release.commit} holds library ${version}, not ${release.version}: fix tools/rolling/previous-release.ts`,
    );
  return (await gitOutput(['rev-parse', `${release.commit}^{commit}`])).trim();
}

function markerFor(file: string): BuildMarker | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BuildMarker;
  } catch {
    return undefined;
  }
}

/**
 * The environment of the release's npm commands: its Node first on the PATH (npm, its scripts
 * and their `node` all run on it), and none of the `npm_*` variables of an npm script that may
 * be running this tool, which would point npm at this checkout's settings.
 */
function releaseEnv(node: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
  return { ...env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
}

async function gitOutput(args: string[]): Promise<string> {
  return (await execFileAsync('git', ['-C', REPO_ROOT, ...args], { maxBuffer: 16 * 1024 * 1024 }))
    .stdout;
}
