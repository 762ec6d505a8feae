import { Client } from 'pg';
import { storedOutcomeQueries, type StoredOutcome } from './stored-outcome';

/**
 * {@link StoredOutcome} of a PostgreSQL session database, read with a plain client of its own
 * (not through a service, which could recover or continue the runs being counted).
 */
export async function readPgStoredOutcome(databaseUrl: string): Promise<StoredOutcome> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const queries = storedOutcomeQueries((column) => `(${column}::json ->> 'reason')`);
    const count = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0].n);
    const counts: [string, number][] = [];
    for (const [field, sql] of Object.entries(queries)) counts.push([field, await count(sql)]);
    return Object.fromEntries(counts) as unknown as StoredOutcome;
  } finally {
    await client.end();
  }
}
