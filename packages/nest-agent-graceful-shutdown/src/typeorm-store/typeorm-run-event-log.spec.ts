import { describeRunEventLogContract } from '../testing/run-event-log.contract.js';
import { openSqliteStore } from './sqlite-store.fixtures.js';
import { TypeOrmRunEventLog } from './typeorm-run-event-log.js';

describeRunEventLogContract('TypeOrmRunEventLog on SQLite', async () => {
  let time = Date.parse('2025-01-02T03:00:00.000Z');
  const fixture = await openSqliteStore({ now: () => time });
  return {
    log: new TypeOrmRunEventLog(fixture.dataSource, () => time),
    dispose: () => fixture.close(),
    advance: (ms: number) => void (time += ms),
  };
});
