import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

/** The embedded store's file name under `DATA_DIR`. */
export const SQLITE_FILE_NAME = 'agents.sqlite';

/** Owner read and write only: the store holds every conversation. */
export const SQLITE_FILE_MODE = 0o600;

/** A data directory the service creates: owner only. */
export const DATA_DIR_MODE = 0o700;

/** Tightens an existing file to `mode`; a file this user does not own (a mounted, read-only store) is left alone. */
function tighten(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM' && code !== 'EROFS') throw error;
  }
}

/**
 * Makes the embedded store's file readable by its owner only, before SQLite opens it, and
 * returns its path. The directory is created owner-only when missing (an existing one, often a
 * mounted volume, is left as it is). The file is created 0600 when missing and set to 0600 when
 * it exists; SQLite creates its `-wal` and `-shm` files with the database file's mode, and
 * existing ones are set to 0600 too.
 */
export function prepareSqliteFile(dataDir: string): string {
  if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  const path = join(dataDir, SQLITE_FILE_NAME);
  closeSync(openSync(path, 'a', SQLITE_FILE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) tighten(file, SQLITE_FILE_MODE);
  return path;
}
