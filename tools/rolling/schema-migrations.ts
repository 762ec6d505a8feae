import { Client } from 'pg';

/** How long the query may take, in ms. */
const QUERY_TIMEOUT_MS = 30_000;

/**
 * The names of the migrations applied to the PostgreSQL database at `databaseUrl`, in the
 * order they ran (TypeORM's `migrations` table, the same in TypeORM 0.3 and 1): read before
 * and after an upgrade, the difference is what the new release migrated at boot.
 */
export async function readMigrations(databaseUrl: string): Promise<string[]> {
  const client = new Client({
    connectionString: databaseUrl,
    statement_timeout: QUERY_TIMEOUT_MS,
    connectionTimeoutMillis: QUERY_TIMEOUT_MS,
  });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      'SELECT name FROM migrations ORDER BY id',
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}
