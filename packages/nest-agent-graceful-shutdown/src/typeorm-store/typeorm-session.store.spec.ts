import { describeSessionStoreContract } from '../testing/session-store.contract.js';
import { describeDatabaseLeaseClock } from './database-lease-clock.fixtures.js';
import { describeRecordFormat } from './record-format.fixtures.js';
import { openSqliteStore } from './sqlite-store.fixtures.js';

describeSessionStoreContract(
  'TypeOrmSessionStore on an SQLite file',
  (settings) => openSqliteStore(settings),
  { rollback: true, queue: true },
);

describeDatabaseLeaseClock('TypeOrmSessionStore on an SQLite file', (options) =>
  openSqliteStore(options),
);

describeRecordFormat('TypeOrmSessionStore on an SQLite file', (options) =>
  openSqliteStore(options),
);
