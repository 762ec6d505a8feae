import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * Every installed copy of package `name` in the app at `dir`, by `npm ls --all --parseable`
 * (one folder per copy, nested ones included): one entry means one copy of that package.
 */
export async function installedCopies(dir: string, name: string): Promise<string[]> {
  // `npm ls` exits non-zero on any problem in the tree, yet still prints the tree.
  const { stdout } = await promisify(execFile)('npm', ['ls', '--all', '--parseable'], {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return [...new Set(stdout.split('\n').filter((line) => line.endsWith(`/node_modules/${name}`)))];
}

/** The version of `name` the app at `dir` resolves, from its `node_modules`. */
export async function installedVersion(dir: string, name: string): Promise<string> {
  const { stdout } = await promisify(execFile)('npm', ['ls', name, '--depth=0', '--json'], {
    cwd: dir,
  }).catch((error: { stdout?: string }) => ({
    stdout: error.stdout ?? '{}',
  }));
  return (
    (JSON.parse(stdout) as { dependencies?: Record<string, { version?: string }> }).dependencies?.[
      name
    ]?.version ?? 'missing'
  );
}
