import { describeFinishRunBatching } from './finish-batch.fixtures';
import { openSqliteStore } from './sqlite-store.fixtures';

describeFinishRunBatching('TypeOrmSessionStore on an SQLite file', (options) => openSqliteStore(options));
