import { Client } from 'pg';

/** One interrupted run as the shutdown stored it: what the floor writes again, byte for byte. */
interface SavedEnd {
  threadId: string;
  runKey: string;
  interrupt: string;
  status: string;
  stopReason: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  iteration: number;
  phase: string | null;
}

/** The part of better-sqlite3 used here; the package ships no types of its own. */
interface SqliteDatabase {
  pragma(sql: string): unknown;
  prepare(sql: string): {
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number };
  };
  exec(sql: string): void;
  close(): void;
}
type SqliteConstructor = new (file: string) => SqliteDatabase;

const READ_ENDS = `SELECT t.thread_id AS "threadId", t.last_run_key AS "runKey", t.interrupt, r.status, r.stop_reason AS "stopReason",
  r.error_code AS "errorCode", r.error_message AS "errorMessage", r.iteration, r.phase
  FROM agent_threads t JOIN agent_runs r ON r.run_key = t.last_run_key WHERE t.status = 'interrupted'`;
// Back to "in flight", as before the signal (not timed).
const RESET_THREADS = `UPDATE agent_threads SET status = 'running', active_run_id = 'in-flight', interrupt = NULL, lease_owner = 'bench' WHERE status = 'interrupted'`;
const RESET_RUNS = `UPDATE agent_runs SET status = 'running', ended_at = NULL WHERE status = 'interrupted'`;
const SQLITE_THREAD = `UPDATE agent_threads SET status = 'interrupted', active_run_id = NULL, interrupt = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
  WHERE thread_id = ? AND last_run_key = ? AND active_run_id IS NOT NULL`;
const SQLITE_RUN = `UPDATE agent_runs SET status = ?, stop_reason = ?, error_code = ?, error_message = ?, iteration = ?, phase = ?, ended_at = ? WHERE run_key = ?`;
const PG_BATCH = `WITH fenced AS (
  UPDATE agent_threads t SET status = 'interrupted', active_run_id = NULL, interrupt = v.interrupt, lease_owner = NULL, lease_expires_at = NULL, updated_at = $1
    FROM unnest($2::varchar[], $3::varchar[], $4::text[]) AS v(thread_id, run_key, interrupt)
   WHERE t.thread_id = v.thread_id AND t.last_run_key = v.run_key AND t.active_run_id IS NOT NULL
  RETURNING v.run_key)
UPDATE agent_runs r SET status = u.status, stop_reason = u.stop_reason, error_code = u.error_code, error_message = u.error_message,
       iteration = u.iteration, phase = u.phase, ended_at = $1
  FROM unnest($3::varchar[], $5::varchar[], $6::varchar[], $7::varchar[], $8::text[], $9::int[], $10::varchar[])
       AS u(run_key, status, stop_reason, error_code, error_message, iteration, phase)
 WHERE r.run_key = u.run_key AND u.run_key IN (SELECT run_key FROM fenced)`;

/** The floor of one store: the median of `repeats` timings, in milliseconds, and the rows each wrote. */
export interface WriteFloor {
  medianMs: number;
  samplesMs: number[];
  rows: number;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The least a save of these interrupted runs can cost on this SQLite file: the same rows and
 * markers the shutdown stored, written again by one transaction of prepared statements on an
 * open connection with the service's pragmas, timed from BEGIN to COMMIT. Run after the
 * service has exited; the rows end as they were.
 */
export function sqliteWriteFloor(databaseFile: string, repeats = 3): WriteFloor {
  // Loaded only when a benchmark reads a store, so the rest of the tools need no native module.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require('better-sqlite3') as SqliteConstructor;
  const db = new Database(databaseFile);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    const ends = db.prepare(READ_ENDS).all() as SavedEnd[];
    const threads = db.prepare(SQLITE_THREAD);
    const runs = db.prepare(SQLITE_RUN);
    const samplesMs: number[] = [];
    for (let i = 0; i < repeats; i++) {
      db.exec(`${RESET_THREADS}; ${RESET_RUNS}`);
      const at = new Date().toISOString();
      const startedAt = performance.now();
      db.exec('BEGIN');
      let written = 0;
      for (const end of ends) {
        written += threads.run(end.interrupt, at, end.threadId, end.runKey).changes;
        runs.run(
          end.status,
          end.stopReason,
          end.errorCode,
          end.errorMessage,
          end.iteration,
          end.phase,
          at,
          end.runKey,
        );
      }
      db.exec('COMMIT');
      samplesMs.push(performance.now() - startedAt);
      if (written !== ends.length)
        throw new Error(`the floor wrote ${written} of ${ends.length} threads`);
    }
    return { medianMs: median(samplesMs), samplesMs, rows: ends.length };
  } finally {
    db.close();
  }
}

/**
 * The same floor on PostgreSQL: one transaction with the batched, fenced `unnest` statement the
 * store uses, on a connection already open, timed from BEGIN to the acknowledged COMMIT.
 */
export async function postgresWriteFloor(databaseUrl: string, repeats = 3): Promise<WriteFloor> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const ends = (await client.query<SavedEnd>(READ_ENDS)).rows;
    const column = <K extends keyof SavedEnd>(key: K) => ends.map((end) => end[key]);
    const samplesMs: number[] = [];
    for (let i = 0; i < repeats; i++) {
      await client.query(RESET_THREADS);
      await client.query(RESET_RUNS);
      const params = [
        new Date().toISOString(),
        column('threadId'),
        column('runKey'),
        column('interrupt'),
        column('status'),
        column('stopReason'),
        column('errorCode'),
        column('errorMessage'),
        column('iteration'),
        column('phase'),
      ];
      const startedAt = performance.now();
      await client.query('BEGIN');
      const result = await client.query(PG_BATCH, params);
      await client.query('COMMIT');
      samplesMs.push(performance.now() - startedAt);
      if (result.rowCount !== ends.length)
        throw new Error(`the floor wrote ${result.rowCount} of ${ends.length} runs`);
    }
    return { medianMs: median(samplesMs), samplesMs, rows: ends.length };
  } finally {
    await client.end();
  }
}
