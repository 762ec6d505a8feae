import { DataSource } from 'typeorm';
import { PostgresServer } from '../../../../tools/local-services';
import { describeFinishRunBatching } from './finish-batch.fixtures';
import { SESSION_ENTITIES, SESSION_MIGRATIONS } from './session-schema';
import { TypeOrmSessionStore } from './typeorm-session.store';

// A real PostgreSQL 15 on loopback for this suite; each test gets a database of its own.
let server: PostgresServer;
let databases = 0;

beforeAll(async () => {
  server = await PostgresServer.start();
}, 120_000);

afterAll(async () => {
  await server?.destroy();
});

describeFinishRunBatching('TypeOrmSessionStore on PostgreSQL', async (options) => {
  const url = await server.createDatabase(`finish_batch_${++databases}`);
  const dataSource = new DataSource({ type: 'postgres', url, entities: SESSION_ENTITIES, migrations: SESSION_MIGRATIONS, migrationsRun: true });
  await dataSource.initialize();
  return { store: new TypeOrmSessionStore(dataSource, options), dataSource, close: () => dataSource.destroy() };
});
