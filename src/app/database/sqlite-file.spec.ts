import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAppConfig } from '../config/app-config';
import { databaseOptions } from './database-options';
import { openDataSource } from './open-data-source';
import { prepareSqliteFile, SQLITE_FILE_NAME } from './sqlite-file';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the embedded store file', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sqlite-mode-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is created 0600 with its -wal and -shm files, in a data directory the service makes 0700', async () => {
    const dataDir = join(root, 'data');
    const dataSource = await openDataSource(
      databaseOptions(loadAppConfig({ AUTH_JWT_SECRET: 's', DATA_DIR: dataDir })),
    );
    try {
      await dataSource.query(`SELECT count(*) FROM migrations`);
      const file = join(dataDir, SQLITE_FILE_NAME);
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(file)).toBe(0o600);
      expect(modeOf(`${file}-wal`)).toBe(0o600);
      expect(modeOf(`${file}-shm`)).toBe(0o600);
    } finally {
      await dataSource.destroy();
    }
  });

  it('tightens an existing world-readable store file to 0600 and leaves an existing directory as it is', () => {
    const file = join(root, SQLITE_FILE_NAME);
    writeFileSync(file, '', { mode: 0o644 });
    writeFileSync(`${file}-wal`, '', { mode: 0o644 });
    const directoryMode = modeOf(root);
    expect(prepareSqliteFile(root)).toBe(file);
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(`${file}-wal`)).toBe(0o600);
    expect(modeOf(root)).toBe(directoryMode);
  });
});
