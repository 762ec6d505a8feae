import type { DataSource } from 'typeorm';
import { ThreadEntity } from './entities/thread.entity.js';

/**
 * Makes `ms` milliseconds of the database's clock pass for every lease stored in `dataSource`,
 * by moving each lease's end back by `ms`: leases are judged on that clock, which a spec cannot
 * move, and waiting out real lease lengths would make specs slow. Call it while no write is in
 * flight. Everything else (renewals, sweeps, status reads) runs unchanged against the real clock.
 */
export async function advanceLeaseClock(dataSource: DataSource, ms: number): Promise<void> {
  const table = dataSource.driver.escape(dataSource.getMetadata(ThreadEntity).tablePath);
  const earlier =
    dataSource.options.type === 'postgres'
      ? `to_char((lease_expires_at::timestamptz - ${Math.trunc(ms)} * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : `strftime('%Y-%m-%dT%H:%M:%fZ', lease_expires_at, '${(-ms / 1000).toFixed(3)} seconds')`;
  await dataSource.query(
    `UPDATE ${table} SET lease_expires_at = ${earlier} WHERE lease_expires_at IS NOT NULL`,
  );
}
