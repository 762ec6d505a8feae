import { PostgresServer } from 'dev-services';

/**
 * Which store the end-to-end suites run the service on: the embedded SQLite file by default,
 * PostgreSQL when `E2E_STORE=postgres` (the `e2e-postgres` jest project). The same suites
 * then prove the same behaviour on both.
 */
let server: Promise<PostgresServer> | undefined;
let databases = 0;

export const onPostgres = () => process.env.E2E_STORE === 'postgres';

/** Environment that puts a newly started service on its own fresh database (nothing for SQLite). */
export async function storeEnvironment(): Promise<Record<string, string>> {
  if (!onPostgres()) return {};
  server ??= PostgresServer.start();
  const url = await (await server).createDatabase(`e2e_${++databases}`);
  // Instances share PostgreSQL, so a killed one's threads wait for its lease: keep it short.
  // PostgreSQL alone signals across instances and would resume runs itself (`auto`): these suites
  // prove the client's retry, as on SQLite; the multi-instance suites prove `auto`.
  return { DATABASE_URL: url, LEASE_TTL_MS: '1500', RESUME_MODE: 'client' };
}

/** Stops this suite's PostgreSQL, if it started one. */
export async function stopStoreBackend(): Promise<void> {
  const started = server;
  server = undefined;
  await (await started)?.destroy();
}
