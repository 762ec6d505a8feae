import type { DataSource, EntityManager } from 'typeorm';
import { writeQueueOf } from './session-database.js';

/**
 * Runs `work` in a transaction of `dataSource`, the data source the session store writes
 * through too: what a tool that keeps its own tables in the same database uses. An embedded
 * SQLite database has one connection, on which TypeORM would nest concurrent transactions as
 * savepoints of one another, so there the transaction waits its turn behind the store's writes;
 * on PostgreSQL it runs at once on a pooled connection.
 *
 * @example
 * await sharedTransaction(dataSource, (manager) => manager.query('UPDATE accounts SET … WHERE id = $1 AND fence <= $2', [id, token]));
 */
export function sharedTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  const type = dataSource.options.type as string;
  const embedded = type === 'better-sqlite3' || type === 'sqlite';
  return embedded
    ? writeQueueOf(dataSource).run(() => dataSource.transaction(work))
    : dataSource.transaction(work);
}
