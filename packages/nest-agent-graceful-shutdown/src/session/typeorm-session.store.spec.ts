import { describeSessionStoreContract } from '../testing/session-store.contract';
import { describeDatabaseLeaseClock } from './database-lease-clock.fixtures';
import { describeRecordFormat } from './record-format.fixtures';
import { openSqliteStore } from './sqlite-store.fixtures';

describeSessionStoreContract('TypeOrmSessionStore on an SQLite file', (settings) => openSqliteStore(settings));

describeDatabaseLeaseClock('TypeOrmSessionStore on an SQLite file', (options) => openSqliteStore(options));

describeRecordFormat('TypeOrmSessionStore on an SQLite file', (options) => openSqliteStore(options));
