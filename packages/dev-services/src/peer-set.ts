import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { run } from './node-runtimes';
import { REPO_ROOT } from './repo-root';

/** One folder per set and content, under node_modules so it is never committed. */
const CACHE_ROOT = resolve(REPO_ROOT, 'node_modules', '.cache', 'peer-sets');

/** Written last: a folder without it is a half-finished install, done again. */
const COMPLETE = '.complete';

/** Exact versions by package name, e.g. `{ '@nestjs/core': '11.0.1' }`. */
export type PeerVersions = Readonly<Record<string, string>>;

/**
 * The folder whose `node_modules` holds `versions` (and their own dependencies), installed from
 * the registry once per machine and content: a set of a package's peers other than the ones
 * the repository installs, e.g. the oldest release of each range, for running the same specs
 * against it (see {@link peerSetJestEnv}). Scripts are not run: no peer needs one.
 * Parallel processes are safe (each installs into its own folder and renames it into place).
 *
 * @example
 * const dir = await ensurePeerSet('oldest', { typeorm: '0.3.20' });
 */
export async function ensurePeerSet(name: string, versions: PeerVersions): Promise<string> {
  const manifest = { name: `peer-set-${name}`, private: true, dependencies: versions };
  const digest = createHash('sha256').update(JSON.stringify(manifest)).digest('hex').slice(0, 12);
  const dir = join(CACHE_ROOT, `${name}-${digest}`);
  if (existsSync(join(dir, COMPLETE))) return dir;
  await mkdir(CACHE_ROOT, { recursive: true });
  const work = await mkdtemp(join(CACHE_ROOT, `.${name}-`));
  try {
    await writeFile(join(work, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    // A set names old releases on purpose: their peers may not match each other's newest.
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--ignore-scripts',
        '--no-package-lock',
        '--loglevel=error',
      ],
      {
        cwd: work,
        fix: `check that the npm registry is reachable and that each version exists (\`npm view <name>@<version> version\`): ${JSON.stringify(versions)}`,
      },
    );
    await writeFile(join(work, COMPLETE), '');
    await rename(work, dir).catch(async (error: unknown) => {
      // Another process finished the same set first: its copy is as good as ours.
      if (!existsSync(join(dir, COMPLETE))) throw error;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return dir;
}

/** The jest resolver that serves a peer set's packages from its folder (see {@link peerSetJestEnv}). */
export const PEER_SET_RESOLVER = join(
  REPO_ROOT,
  'packages',
  'dev-services',
  'src',
  'peer-set-resolver.cjs',
);

/**
 * The environment under which jest, run with `resolver: PEER_SET_RESOLVER`, loads every import of
 * the set's packages (and their subpaths) from the set's folder, from the specs and from inside
 * node_modules alike, so one run sees one version of each. Packages outside the set still
 * resolve from the repository.
 */
export function peerSetJestEnv(dir: string, versions: PeerVersions): Record<string, string> {
  return { PEER_SET_DIR: dir, PEER_SET_NAMES: JSON.stringify(Object.keys(versions)) };
}
