/** The part of better-sqlite3 used here; the package ships no types of its own. */
interface ReadOnlyDatabase {
  prepare(sql: string): { get(...params: unknown[]): Record<string, number> };
  close(): void;
}
type DatabaseConstructor = new (
  file: string,
  options: { readonly: boolean; fileMustExist: boolean },
) => ReadOnlyDatabase;

/** What the store says about the runs after the process has gone. */
export interface StoredOutcome {
  /** Threads `interrupted` with a shutdown marker. */
  interruptedThreads: number;
  /** Runs `interrupted`. */
  interruptedRuns: number;
  /** Runs still `running`: their end was never written. */
  runningRuns: number;
  /** Threads interrupted with a shutdown marker whose last run is recorded as interrupted: resumable. */
  durable: number;
}

/**
 * One `SELECT COUNT(*) AS n` per field of {@link StoredOutcome}, for either database:
 * `reasonOf(column)` is the dialect's way to read the `reason` of the JSON marker in `column`.
 */
export function storedOutcomeQueries(
  reasonOf: (column: string) => string,
): Record<keyof StoredOutcome, string> {
  const shutdownMarked = `t.status = 'interrupted' AND t.interrupt IS NOT NULL AND ${reasonOf('t.interrupt')} = 'shutdown'`;
  return {
    interruptedThreads: `SELECT COUNT(*) AS n FROM agent_threads t WHERE ${shutdownMarked}`,
    interruptedRuns: `SELECT COUNT(*) AS n FROM agent_runs WHERE status = 'interrupted'`,
    runningRuns: `SELECT COUNT(*) AS n FROM agent_runs WHERE status = 'running'`,
    durable: `SELECT COUNT(*) AS n FROM agent_threads t JOIN agent_runs r ON r.run_key = t.last_run_key
         WHERE ${shutdownMarked} AND r.status = 'interrupted' AND r.ended_at IS NOT NULL`,
  };
}

/**
 * Reads the embedded store of a stopped service directly, read-only, rather than asking a
 * new service process: booting one would recover orphaned runs and so rewrite what is
 * being checked.
 */
export function readStoredOutcome(databaseFile: string): StoredOutcome {
  // Loaded only when a benchmark reads a store, so the rest of the tools need no native module.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require('better-sqlite3') as DatabaseConstructor;
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  const queries = storedOutcomeQueries((column) => `json_extract(${column}, '$.reason')`);
  const count = (sql: string) => Number(db.prepare(sql).get().n);
  try {
    return Object.fromEntries(
      Object.entries(queries).map(([field, sql]) => [field, count(sql)]),
    ) as unknown as StoredOutcome;
  } finally {
    db.close();
  }
}
