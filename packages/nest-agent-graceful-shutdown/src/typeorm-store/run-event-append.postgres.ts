import type { BaseEvent } from '@ag-ui/core';
import type { LoggedEvent, RunLogKey } from '../contracts/run-event-log.interface.js';
import type { BatchOutcome } from '../database/group-commit.js';
import { keyOf, planAppends, type AppendRequest, type LogState } from './run-event-log-rows.js';
import type { PostgresConnection } from './session-database.js';

/**
 * A batch of appends, each of its own run, in one statement: the logs' rows read and locked (in
 * key order, so two batches cannot deadlock), the calls that are neither fenced nor leave a gap
 * applied (their new events inserted, their logs' last ids raised), and the rows as they were
 * before returned, so `planAppends` answers each call exactly as the statement decided. One
 * round trip, with no BEGIN and COMMIT: PostgreSQL runs a statement as one.
 */
const APPEND = `WITH req AS (
  SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::boolean[]) AS r(thread_id, run_id, writer, contiguous)
), cur AS (
  SELECT l.thread_id, l.run_id, l.last_id, l.writer FROM agent_run_event_logs l
    JOIN req ON l.thread_id = req.thread_id AND l.run_id = req.run_id
   ORDER BY l.thread_id, l.run_id FOR UPDATE OF l
), ev AS (
  SELECT * FROM unnest($5::varchar[], $6::varchar[], $7::int[], $8::text[]) AS e(thread_id, run_id, event_id, event)
), ok AS (
  SELECT req.thread_id, req.run_id, COALESCE(cur.last_id, 0) AS last_id, COALESCE(cur.writer, req.writer) AS writer
    FROM req LEFT JOIN cur ON cur.thread_id = req.thread_id AND cur.run_id = req.run_id
   WHERE (req.writer IS NULL OR cur.writer IS NULL OR cur.writer = req.writer)
     AND NOT (req.contiguous AND COALESCE((SELECT MIN(ev.event_id) FROM ev
       WHERE ev.thread_id = req.thread_id AND ev.run_id = req.run_id AND ev.event_id > COALESCE(cur.last_id, 0)), 0) > COALESCE(cur.last_id, 0) + 1)
), fresh AS (
  SELECT ev.thread_id, ev.run_id, ev.event_id, ev.event, ok.writer FROM ev
    JOIN ok ON ok.thread_id = ev.thread_id AND ok.run_id = ev.run_id WHERE ev.event_id > ok.last_id
), inserted AS (
  INSERT INTO agent_run_events (thread_id, run_id, event_id, event) SELECT thread_id, run_id, event_id, event FROM fresh
), grown AS (
  INSERT INTO agent_run_event_logs (thread_id, run_id, last_id, writer, expires_at)
  SELECT thread_id, run_id, MAX(event_id), writer, NULL FROM fresh GROUP BY thread_id, run_id, writer
  ON CONFLICT (thread_id, run_id) DO UPDATE SET last_id = excluded.last_id, expires_at = NULL
)
SELECT thread_id, run_id, last_id, writer FROM cur`;

/** Whether `requests` can go as one statement: each names a run of its own. */
export function oneRunEach(requests: readonly AppendRequest[]): boolean {
  return new Set(requests.map((request) => keyOf(request.run))).size === requests.length;
}

/** Appends a batch whose calls each name a run of their own (`oneRunEach`) in one statement; answers what each call added. */
export async function appendEventsInOneStatement(
  connection: PostgresConnection,
  requests: readonly AppendRequest[],
): Promise<BatchOutcome<LoggedEvent[]>[]> {
  const events = requests.flatMap((request) =>
    request.events.map((entry) => ({ run: request.run, ...entry })),
  );
  const { rows } = await connection.query<{
    thread_id: string;
    run_id: string;
    last_id: number;
    writer: string | null;
  }>({
    name: 'agent-run-events-append',
    text: APPEND,
    values: [
      requests.map((r) => r.run.threadId),
      requests.map((r) => r.run.runId),
      requests.map((r) => r.writer ?? null),
      requests.map((r) => r.contiguous === true),
      events.map((e) => e.run.threadId),
      events.map((e) => e.run.runId),
      events.map((e) => e.id),
      events.map((e) => JSON.stringify(e.event)),
    ],
  });
  const before = new Map<string, LogState>(
    rows.map((row) => [
      keyOf({ threadId: row.thread_id, runId: row.run_id }),
      { lastId: row.last_id, writer: row.writer },
    ]),
  );
  return planAppends(requests, before).outcomes;
}

/**
 * Makes `writer` the log's claimant, creating the log if it has none, and reads its last
 * event, in one statement (see `RunEventLog.claim`).
 */
const CLAIM = `WITH claimed AS (
  INSERT INTO agent_run_event_logs (thread_id, run_id, last_id, writer, expires_at) VALUES ($1, $2, 0, $3, NULL)
  ON CONFLICT (thread_id, run_id) DO UPDATE SET writer = excluded.writer RETURNING last_id
)
SELECT e.event_id, e.event FROM claimed JOIN agent_run_events e ON e.thread_id = $1 AND e.run_id = $2 AND e.event_id = claimed.last_id`;

/** Claims the run's log for `writer` in one statement; resolves its last event, null when it has none. */
export async function claimInOneStatement(
  connection: PostgresConnection,
  run: RunLogKey,
  writer: string,
): Promise<LoggedEvent | null> {
  const { rows } = await connection.query<{ event_id: number; event: string }>({
    name: 'agent-run-events-claim',
    text: CLAIM,
    values: [run.threadId, run.runId, writer],
  });
  return rows[0] ? { id: rows[0].event_id, event: JSON.parse(rows[0].event) as BaseEvent } : null;
}
