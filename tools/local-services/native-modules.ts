import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { findExecutable } from './executables';
import { ensureNodeRuntime, run } from './node-runtimes';
import { REPO_ROOT } from './repo-root';

const execFileAsync = promisify(execFile);

/** The installed package whose addon is rebuilt: the same version and sources as the tests use. */
const BETTER_SQLITE3_DIR = join(REPO_ROOT, 'node_modules', 'better-sqlite3');

/** Compiling SQLite's amalgamation takes about 100 s; past 10 minutes something is stuck. */
const BUILD_TIMEOUT_MS = 600_000;

/** True when `node` can load the addon at `path` (one built for another major fails with ERR_DLOPEN_FAILED). */
async function loads(node: string, path: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  try {
    await execFileAsync(node, ['-e', 'process.dlopen({ exports: {} }, process.argv[1])', path], { timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * npm's bundled node-gyp: beside the npm of the machine's node, or of the `npm` on `PATH` (when
 * this process runs on a cached node, whose directory holds no npm).
 */
function findNodeGyp(): string {
  const npmDirs = [join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm')];
  const npm = findExecutable('npm', []);
  if (npm) npmDirs.push(dirname(dirname(realpathSync(npm)))); // <npm>/bin/npm-cli.js
  const candidates = npmDirs.map((dir) => join(dir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`node-gyp not found (looked for ${candidates.join(', ')}): install npm, which bundles it.`);
  return found;
}

/**
 * Node 24.19 made `node::ObjectWrap` (inline in node_object_wrap.h, so compiled into each addon)
 * add an environment cleanup hook in its constructor and remove it in its destructor, and the
 * removal aborts the process when a GC finalizes a wrapper while no JS runs (no current
 * Environment): better-sqlite3 12, whose Database and Statement are raw ObjectWraps, kills a
 * jest worker with SIGABRT in most unit runs on 24.21 (nodejs/node#65446, open; better-sqlite3 13
 * avoids it but needs Node 22+). So build against a copy of the headers whose two hook calls do
 * nothing, which gives the addon that headers before 24.19 gave, and return that copy's root
 * (node-gyp's `--nodedir`). Headers without the hooks (Node 22) are copied unchanged.
 */
async function headersWithoutObjectWrapHooks(nodeDir: string, work: string): Promise<string> {
  const copy = join(work, 'node');
  await cp(join(nodeDir, 'include'), join(copy, 'include'), { recursive: true });
  const header = join(copy, 'include', 'node', 'node_object_wrap.h');
  const source = await readFile(header, 'utf8');
  await writeFile(header, source.replace(/void (Add|Remove)CleanupHook\(\) \{[^}]*\}/g, 'void $1CleanupHook() {}'));
  return copy;
}

async function build(major: 22 | 24): Promise<string> {
  const node = await ensureNodeRuntime(major);
  const nodeDir = dirname(node); // holds include/node, the headers to compile against
  const target = join(nodeDir, 'better_sqlite3.node');
  if (await loads(node, target)) return target;
  // A private directory beside the cache, so the final rename is atomic on one filesystem. The
  // installed build/ is left out: it belongs to the machine's node and node-gyp would reuse it.
  const work = await mkdtemp(join(dirname(nodeDir), '.build-better-sqlite3-'));
  const pkg = join(work, 'better-sqlite3');
  try {
    await cp(BETTER_SQLITE3_DIR, pkg, { recursive: true, filter: (source) => source !== join(BETTER_SQLITE3_DIR, 'build') });
    const headers = await headersWithoutObjectWrapHooks(nodeDir, work);
    // npm passes its config to node-gyp as npm_config_* variables, which node-gyp lets override its
    // own flags: the user config's `nodedir` (the machine's Node 20 headers) would win over ours.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
    // The build runs `node copy.js` (from sqlite3.gyp): the target node first on PATH keeps it on one version.
    env.PATH = `${nodeDir}:${process.env.PATH ?? ''}`;
    await run(node, [findNodeGyp(), 'rebuild', '--release', `--nodedir=${headers}`], {
      cwd: pkg,
      env,
      timeoutMs: BUILD_TIMEOUT_MS,
      fix: 'are python3, make and a C++ compiler (g++) installed?',
    });
    // Atomic even over a copy another process just built: a reader sees one whole file or the other.
    await rename(join(pkg, 'build', 'Release', 'better_sqlite3.node'), target);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  if (!(await loads(node, target))) throw new Error(`Node ${major} cannot load ${target} right after building it: delete it and retry.`);
  return target;
}

const building = new Map<number, Promise<string>>();

/**
 * Absolute path of a `better_sqlite3.node` built for the given Node major, for running code
 * that opens SQLite on that node: the one in `node_modules/better-sqlite3` is built for the
 * machine's own node, and another major refuses it (NODE_MODULE_VERSION mismatch). The first
 * call on a machine compiles the installed better-sqlite3 from source against the headers kept
 * by {@link ensureNodeRuntime} (see headersWithoutObjectWrapHooks) with npm's bundled node-gyp (about 100 s; needs python3, make and
 * g++) and caches it as `node_modules/.cache/node-runtimes/<major>/better_sqlite3.node`; later
 * calls check that the target node can load it. Concurrent calls in one process share one build.
 *
 * @example
 * const addon = await ensureBetterSqlite3(24); // point jest at it:
 * spawn(node, [jest, '--moduleNameMapper', JSON.stringify({ 'better_sqlite3\\.node$': addon })]);
 */
export function ensureBetterSqlite3(major: 22 | 24): Promise<string> {
  let pending = building.get(major);
  if (!pending) {
    pending = build(major).catch((error: unknown) => {
      building.delete(major); // a later call may retry, e.g. once a compiler is installed
      throw error;
    });
    building.set(major, pending);
  }
  return pending;
}
