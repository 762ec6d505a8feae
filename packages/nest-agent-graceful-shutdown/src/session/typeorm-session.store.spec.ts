import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { describeSessionStoreContract } from '../testing/session-store.contract';
import { SESSION_ENTITIES, SESSION_MIGRATIONS } from './session-schema';
import { TypeOrmSessionStore } from './typeorm-session.store';

describeSessionStoreContract('TypeOrmSessionStore on an SQLite file', async (settings) => {
  const dir = await mkdtemp(join(tmpdir(), 'session-store-'));
  const dataSource = new DataSource({
    type: 'better-sqlite3',
    database: join(dir, 'sessions.sqlite'),
    entities: SESSION_ENTITIES,
    migrations: SESSION_MIGRATIONS,
    migrationsRun: true,
  });
  await dataSource.initialize();
  return {
    store: new TypeOrmSessionStore(dataSource, settings),
    async close() {
      await dataSource.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
