import { DataSource } from 'typeorm';
import {
  SESSION_ENTITIES,
  TypeOrmRunEventLog,
  type RunEventLog,
} from 'nest-agent-graceful-shutdown/store';
import { RedisRunEventLog } from 'nest-agent-graceful-shutdown/redis';
import { SILENT_LOGGER } from './bench-stats';

/** A service's run event log, opened in this process with the library's own class; `close()` when done. */
export interface OpenedRunLog {
  log: RunEventLog;
  close(): Promise<void>;
}

/** The embedded store's log (`agent_run_events` in the service's SQLite file), read beside the running service. */
export async function openSqliteRunLog(databaseFile: string): Promise<OpenedRunLog> {
  const dataSource = await new DataSource({
    type: 'better-sqlite3',
    database: databaseFile,
    entities: SESSION_ENTITIES,
    synchronize: false,
  }).initialize();
  return { log: new TypeOrmRunEventLog(dataSource), close: () => dataSource.destroy() };
}

/** The Redis Streams log the service writes with `REDIS_URL` (its default key prefix). */
export async function openRedisRunLog(url: string): Promise<OpenedRunLog> {
  const log = new RedisRunEventLog({ url, logger: SILENT_LOGGER });
  await log.connect();
  return { log, close: () => log.close() };
}
