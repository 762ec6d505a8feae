import { describeSessionStoreContract } from '../testing/session-store.contract';
import { openSqliteStore } from './sqlite-store.fixtures';

describeSessionStoreContract('TypeOrmSessionStore on an SQLite file', (settings) => openSqliteStore(settings));
