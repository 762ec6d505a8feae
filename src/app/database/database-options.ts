import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { SESSION_ENTITIES, SESSION_MIGRATIONS } from 'nest-agent-graceful-shutdown';
import type { AppConfig } from '../config/app-config';

/**
 * PostgreSQL when `DATABASE_URL` is set, else an embedded SQLite file under `DATA_DIR`.
 * Never `synchronize`: the schema comes from the migrations, run at boot (see `open-data-source.ts`)
 * or by `npm run migrate`.
 */
export function databaseOptions(config: AppConfig): DataSourceOptions {
  const common = { entities: SESSION_ENTITIES, migrations: SESSION_MIGRATIONS, synchronize: false, migrationsRun: false };
  if (config.databaseUrl) {
    // Fail a query fast while the server is unreachable: the store retries writes itself.
    return { ...common, type: 'postgres', url: config.databaseUrl, connectTimeoutMS: 5_000, extra: { max: 20 } };
  }
  mkdirSync(config.dataDir, { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: join(config.dataDir, 'agents.sqlite'),
    enableWAL: true,
    // WAL with NORMAL sync survives a killed process; only a power loss could drop the last commits.
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
    },
  };
}
