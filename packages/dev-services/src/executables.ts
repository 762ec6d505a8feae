import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** True when `path` exists and this process may execute it. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first executable `name` on `PATH`, then in `fallbackDirs` (where Debian puts server
 * binaries that a user's `PATH` may lack), or `undefined`. Relative `PATH` entries would depend
 * on the cwd of whoever asks: only absolute ones count.
 */
export function findExecutable(name: string, fallbackDirs: readonly string[]): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), ...fallbackDirs];
  return dirs
    .map((dir) => join(dir, name))
    .find((path) => path.startsWith('/') && isExecutable(path));
}
