import type { DataSourceOptions } from 'typeorm';
import { SESSION_ENTITIES, SESSION_MIGRATIONS } from 'nest-agent-graceful-shutdown/store';
import type { AppConfig } from '../config/app-config';
import { SERVICE_MIGRATIONS } from './service-migrations';
import { prepareSqliteFile } from './sqlite-file';

/** How long a PostgreSQL session may sit idle inside a transaction before the server aborts it, in milliseconds. */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;

/**
 * PostgreSQL when `DATABASE_URL` is set, else an embedded SQLite file under `DATA_DIR`, readable
 * by its owner only (`prepareSqliteFile`).
 * Never `synchronize`: the schema comes from the migrations (the session's, then the service's
 * own), run at boot (see `open-data-source.ts`)
 * or by `npm run migrate`.
 */
export function databaseOptions(config: AppConfig): DataSourceOptions {
  const common = {
    entities: SESSION_ENTITIES,
    migrations: [...SESSION_MIGRATIONS, ...SERVICE_MIGRATIONS],
    synchronize: false,
    migrationsRun: false,
  };
  if (config.databaseUrl) {
    // Fail a query fast while the server is unreachable: the store retries writes itself.
    // A paused or wedged instance's open transaction is aborted by the server after 10 s, so the
    // row locks it holds cannot keep other instances from recovering its runs.
    return {
      ...common,
      type: 'postgres',
      url: config.databaseUrl,
      connectTimeoutMS: 5_000,
      extra: { max: 20, idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS },
    };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database: prepareSqliteFile(config.dataDir),
    enableWAL: true,
    // WAL with NORMAL sync survives a killed process; only a power loss could drop the last commits.
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
    },
  };
}
