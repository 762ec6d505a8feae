import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { SESSION_TYPEORM_OPTIONS } from '../../lib';
import type { AppConfig } from '../config/app-config';

/** PostgreSQL when `DATABASE_URL` is set, else an embedded SQLite file under `DATA_DIR`. Migrations run at boot. */
export function databaseOptions(config: AppConfig): TypeOrmModuleOptions {
  const common = { ...SESSION_TYPEORM_OPTIONS, synchronize: false };
  if (config.databaseUrl) return { ...common, type: 'postgres', url: config.databaseUrl };
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
