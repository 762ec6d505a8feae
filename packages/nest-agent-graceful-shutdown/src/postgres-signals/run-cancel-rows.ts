import type { CancelSignal } from '../contracts/signal-bus.interface.js';

/** Runs a statement with positional parameters: the data source's `query`. */
export type Query = (sql: string, parameters: unknown[]) => Promise<unknown>;

/**
 * The rows of `agent_run_cancels`: a published cancel, kept until it expires or its run ends,
 * so a run that subscribes after the notification, or an instance that did not hear it, still
 * finds it. Each write and its `NOTIFY` are one statement: a cancel is never announced
 * without its row, nor its row written without the announcement. Expired rows are deleted by
 * the next cancel's statement, not by a timer.
 */
export class RunCancelRows {
  constructor(private readonly query: Query) {}

  /** Saves (or renews) a run's cancel for `ttlMs` milliseconds and sends `payload` on `channel`, at commit. */
  async save(run: CancelSignal, ttlMs: number, channel: string, payload: string): Promise<void> {
    await this.query(
      `WITH pruned AS (
         DELETE FROM agent_run_cancels WHERE expires_at < statement_timestamp() AND NOT (thread_id = $1 AND run_id = $2)
       ), saved AS (
         INSERT INTO agent_run_cancels (thread_id, run_id, expires_at)
         VALUES ($1, $2, statement_timestamp() + $3 * interval '1 millisecond')
         ON CONFLICT (thread_id, run_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
         RETURNING 1
       )
       SELECT pg_notify($4, $5) FROM saved`,
      [run.threadId, run.runId, Math.trunc(ttlMs), channel, payload],
    );
  }

  /**
   * Forgets the cancels of runs that ended (a retry with a run's id is a new attempt) and sends
   * `payloads` on `channel`, in one statement however many runs ended together.
   */
  async forget(
    runs: readonly CancelSignal[],
    channel: string,
    payloads: readonly string[],
  ): Promise<void> {
    await this.query(
      `WITH gone AS (
         DELETE FROM agent_run_cancels c USING unnest($1::text[], $2::text[]) AS r(thread_id, run_id)
         WHERE c.thread_id = r.thread_id AND c.run_id = r.run_id
       )
       SELECT pg_notify($3, payload) FROM unnest($4::text[]) AS payload`,
      [runs.map((run) => run.threadId), runs.map((run) => run.runId), channel, payloads],
    );
  }

  /** The runs among `runs` that have a cancel not yet expired. */
  async find(runs: readonly CancelSignal[]): Promise<CancelSignal[]> {
    if (runs.length === 0) return [];
    const rows = (await this.query(
      `SELECT c.thread_id, c.run_id FROM agent_run_cancels c
       JOIN unnest($1::text[], $2::text[]) AS r(thread_id, run_id) ON c.thread_id = r.thread_id AND c.run_id = r.run_id
       WHERE c.expires_at > statement_timestamp()`,
      [runs.map((run) => run.threadId), runs.map((run) => run.runId)],
    )) as Array<{ thread_id: string; run_id: string }>;
    return rows.map((row) => ({ threadId: row.thread_id, runId: row.run_id }));
  }
}
