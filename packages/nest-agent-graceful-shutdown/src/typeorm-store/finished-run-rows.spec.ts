import { describeFinishRunBatching } from './finish-batch.fixtures.js';
import { openSqliteStore } from './sqlite-store.fixtures.js';

describeFinishRunBatching('TypeOrmSessionStore on an SQLite file', (options) =>
  openSqliteStore(options),
);
