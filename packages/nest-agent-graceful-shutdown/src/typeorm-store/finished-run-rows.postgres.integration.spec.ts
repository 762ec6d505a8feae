import { describeFinishRunBatching } from './finish-batch.fixtures.js';
import { usePostgresDatabases } from './postgres-databases.fixtures.js';
import { TypeOrmSessionStore } from './typeorm-session.store.js';

const databases = usePostgresDatabases('finish_batch');

describeFinishRunBatching('TypeOrmSessionStore on PostgreSQL', async (options) => {
  const dataSource = await databases.open();
  return {
    store: new TypeOrmSessionStore(dataSource, options),
    dataSource,
    close: () => dataSource.destroy(),
  };
});
