import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { ServiceProcess } from './service-process';

/** The tables a run request writes to. */
export const WRITTEN_TABLES = ['agent_threads', 'agent_messages', 'agent_runs'] as const;

/** Row counts of `WRITTEN_TABLES`, by table. */
export type RowCounts = Record<(typeof WRITTEN_TABLES)[number], number>;

/**
 * A direct connection to a service's store (its SQLite file, or its PostgreSQL database), to
 * prove what a request wrote without asking the service.
 */
export class StoreRows {
  private constructor(private readonly dataSource: DataSource) {}

  static async open(service: ServiceProcess): Promise<StoreRows> {
    const url = service.env.DATABASE_URL;
    const dataSource = url
      ? new DataSource({ type: 'postgres', url })
      : new DataSource({
          type: 'better-sqlite3',
          database: join(service.dataDir, 'agents.sqlite'),
          readonly: true,
        });
    return new StoreRows(await dataSource.initialize());
  }

  async counts(): Promise<RowCounts> {
    const counts = {} as RowCounts;
    for (const table of WRITTEN_TABLES) {
      const [row] = (await this.dataSource.query(`SELECT count(*) AS n FROM ${table}`)) as Array<{
        n: number | string;
      }>;
      counts[table] = Number(row.n);
    }
    return counts;
  }

  close(): Promise<void> {
    return this.dataSource.destroy();
  }
}
