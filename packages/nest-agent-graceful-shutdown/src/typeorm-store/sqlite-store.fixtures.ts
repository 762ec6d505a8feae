import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { advanceLeaseClock } from './lease-clock.fixtures.js';
import { SESSION_ENTITIES, SESSION_MIGRATIONS } from './session-schema.js';
import { TypeOrmSessionStore, type TypeOrmSessionStoreOptions } from './typeorm-session.store.js';

/** A session store on a fresh SQLite file of its own, for specs; `close()` removes the file. */
export interface SqliteStoreFixture {
  store: TypeOrmSessionStore;
  dataSource: DataSource;
  /** Makes `ms` of the database's clock pass for the stored leases (see `advanceLeaseClock`). */
  advanceDatabaseClock(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** How the fixture opens its file. */
export interface SqliteFileSettings {
  /**
   * Open it as the reference service does: write-ahead log with `synchronous = NORMAL`, so a
   * commit survives a killed process without waiting for the disk (only a power loss could drop
   * the last commits). @default false: SQLite's defaults (rollback journal, a disk flush per commit)
   */
  asTheService?: boolean;
}

/** Opens a migrated SQLite store in a new temporary folder. */
export async function openSqliteStore(
  options: TypeOrmSessionStoreOptions = {},
  file: SqliteFileSettings = {},
): Promise<SqliteStoreFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'session-store-'));
  const dataSource = new DataSource({
    type: 'better-sqlite3',
    database: join(dir, 'sessions.sqlite'),
    entities: SESSION_ENTITIES,
    migrations: SESSION_MIGRATIONS,
    migrationsRun: true,
    ...(file.asTheService
      ? {
          enableWAL: true,
          prepareDatabase: (db: { pragma(sql: string): unknown }) =>
            void db.pragma('synchronous = NORMAL'),
        }
      : {}),
  });
  await dataSource.initialize();
  return {
    store: new TypeOrmSessionStore(dataSource, options),
    dataSource,
    advanceDatabaseClock: (ms) => advanceLeaseClock(dataSource, ms),
    async close() {
      await dataSource.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
