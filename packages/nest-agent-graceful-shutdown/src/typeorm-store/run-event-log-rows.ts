import type { EntityManager } from 'typeorm';
import { EventLogFencedError } from '../errors/event-log-fenced.error.js';
import { EventLogGapError } from '../errors/event-log-gap.error.js';
import type { LoggedEvent, RunLogKey } from '../contracts/run-event-log.interface.js';
import type { BatchOutcome } from '../database/group-commit.js';

/** One `append` call of a batch. */
export interface AppendRequest {
  run: RunLogKey;
  events: readonly LoggedEvent[];
  writer?: string;
  /** Refuse a batch that would leave a gap after the log's last event (see `RunLogAppendOptions`). */
  contiguous?: boolean;
}

/** One `retain` call of a batch: the log is evicted after `expiresAt` (ISO time). */
export interface RetainRequest {
  run: RunLogKey;
  expiresAt: string;
}

/** The part of a better-sqlite3 connection used here (the package ships no types of its own). */
interface SqliteConnection {
  prepare(sql: string): { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown };
}

export interface LogState {
  lastId: number;
  writer: string | null;
  /** Set once the batch appended to it: its row is written at the end. */
  touched?: boolean;
}

export const keyOf = (run: RunLogKey) => `${run.threadId}\u0000${run.runId}`;

/**
 * Appends the events of many runs' `append` calls inside the caller's transaction: each log's
 * row is read (locked on PostgreSQL) once, the calls are applied in order (see `planAppends`),
 * then every new event and every changed log row is written in bulk. Answers the events each
 * call added.
 */
export async function appendEventBatch(
  manager: EntityManager,
  postgres: boolean,
  requests: readonly AppendRequest[],
): Promise<BatchOutcome<LoggedEvent[]>[]> {
  const keys = new Map(requests.map((request) => [keyOf(request.run), request.run]));
  const io = postgres ? postgresIo(manager) : sqliteIo(await manager.queryRunner!.connect());
  const logs = await io.read([...keys.values()]);
  const { outcomes, added } = planAppends(requests, logs);
  await io.insertEvents(added);
  await io.upsertLogs(
    [...logs]
      .filter(([, log]) => log.touched)
      .map(([key, log]) => ({ run: keys.get(key)!, ...log })),
  );
  return outcomes;
}

/**
 * What a batch of `append` calls does to logs in the state `logs` (by `keyOf`), applied in
 * order: a call of a writer other than the log's claimant gets `EventLogFencedError`, a
 * contiguous call that would leave a gap `EventLogGapError`; ids already stored are skipped, so
 * a retry is harmless. Updates `logs` (a log a call grew is `touched`) and lists the events to insert.
 */
export function planAppends(
  requests: readonly AppendRequest[],
  logs: Map<string, LogState>,
): {
  outcomes: BatchOutcome<LoggedEvent[]>[];
  added: { run: RunLogKey; id: number; event: string }[];
} {
  const added: { run: RunLogKey; id: number; event: string }[] = [];
  const outcomes = requests.map((request): BatchOutcome<LoggedEvent[]> => {
    const key = keyOf(request.run);
    const log = logs.get(key);
    if (request.writer !== undefined && log?.writer && log.writer !== request.writer) {
      return { ok: false, error: new EventLogFencedError(request.run.threadId, request.run.runId) };
    }
    const fresh = request.events.filter((entry) => entry.id > (log?.lastId ?? 0));
    if (fresh.length === 0) return { ok: true, value: fresh };
    if (request.contiguous && fresh[0].id > (log?.lastId ?? 0) + 1) {
      return {
        ok: false,
        error: new EventLogGapError(request.run.threadId, request.run.runId, log?.lastId ?? 0),
      };
    }
    for (const { id, event } of fresh)
      added.push({ run: request.run, id, event: JSON.stringify(event) });
    logs.set(key, {
      lastId: fresh.at(-1)!.id,
      writer: log?.writer ?? request.writer ?? null,
      touched: true,
    });
    return { ok: true, value: fresh };
  });
  return { outcomes, added };
}

/** Sets the eviction time of many logs inside the caller's transaction. */
export async function retainLogBatch(
  manager: EntityManager,
  postgres: boolean,
  requests: readonly RetainRequest[],
): Promise<void> {
  if (postgres) {
    await manager.query(
      `UPDATE agent_run_event_logs l SET expires_at = v.expires_at
         FROM unnest($1::varchar[], $2::varchar[], $3::varchar[]) AS v(thread_id, run_id, expires_at)
        WHERE l.thread_id = v.thread_id AND l.run_id = v.run_id`,
      [
        requests.map((r) => r.run.threadId),
        requests.map((r) => r.run.runId),
        requests.map((r) => r.expiresAt),
      ],
    );
    return;
  }
  const connection = (await manager.queryRunner!.connect()) as SqliteConnection;
  const update = connection.prepare(
    `UPDATE agent_run_event_logs SET expires_at = ? WHERE thread_id = ? AND run_id = ?`,
  );
  for (const { run, expiresAt } of requests) update.run(expiresAt, run.threadId, run.runId);
}

/** How a batch reads and writes, per database. */
interface BatchIo {
  read(runs: readonly RunLogKey[]): Promise<Map<string, LogState>>;
  insertEvents(rows: readonly { run: RunLogKey; id: number; event: string }[]): Promise<void>;
  upsertLogs(rows: readonly ({ run: RunLogKey } & LogState)[]): Promise<void>;
}

// Rows are locked in key order, so two batches that share logs cannot deadlock.
const PG_READ = `SELECT thread_id, run_id, last_id, writer FROM agent_run_event_logs
  WHERE (thread_id, run_id) IN (SELECT * FROM unnest($1::varchar[], $2::varchar[])) ORDER BY thread_id, run_id FOR UPDATE`;
const PG_INSERT = `INSERT INTO agent_run_events (thread_id, run_id, event_id, event) SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::int[], $4::text[])`;
const UPSERT_TAIL = `ON CONFLICT (thread_id, run_id) DO UPDATE SET last_id = excluded.last_id, expires_at = NULL`;
const PG_UPSERT = `INSERT INTO agent_run_event_logs (thread_id, run_id, last_id, writer, expires_at)
  SELECT t, r, l, w, NULL FROM unnest($1::varchar[], $2::varchar[], $3::int[], $4::varchar[]) AS v(t, r, l, w) ${UPSERT_TAIL}`;

function postgresIo(manager: EntityManager): BatchIo {
  return {
    async read(runs) {
      const rows = (await manager.query(PG_READ, [
        runs.map((r) => r.threadId),
        runs.map((r) => r.runId),
      ])) as {
        thread_id: string;
        run_id: string;
        last_id: number;
        writer: string | null;
      }[];
      return new Map(
        rows.map((row) => [
          keyOf({ threadId: row.thread_id, runId: row.run_id }),
          { lastId: row.last_id, writer: row.writer },
        ]),
      );
    },
    async insertEvents(rows) {
      if (rows.length)
        await manager.query(PG_INSERT, [
          rows.map((r) => r.run.threadId),
          rows.map((r) => r.run.runId),
          rows.map((r) => r.id),
          rows.map((r) => r.event),
        ]);
    },
    async upsertLogs(rows) {
      if (rows.length)
        await manager.query(PG_UPSERT, [
          rows.map((r) => r.run.threadId),
          rows.map((r) => r.run.runId),
          rows.map((r) => r.lastId),
          rows.map((r) => r.writer),
        ]);
    },
  };
}

/** SQLite: the transaction's own connection, with statements run synchronously one row at a time. */
function sqliteIo(connection: SqliteConnection): BatchIo {
  return {
    async read(runs) {
      const select = connection.prepare(
        `SELECT last_id AS lastId, writer FROM agent_run_event_logs WHERE thread_id = ? AND run_id = ?`,
      );
      const logs = new Map<string, LogState>();
      for (const run of runs) {
        const row = select.get(run.threadId, run.runId) as LogState | undefined;
        if (row) logs.set(keyOf(run), { lastId: row.lastId, writer: row.writer });
      }
      return logs;
    },
    async insertEvents(rows) {
      const insert = connection.prepare(
        `INSERT INTO agent_run_events (thread_id, run_id, event_id, event) VALUES (?, ?, ?, ?)`,
      );
      for (const row of rows) insert.run(row.run.threadId, row.run.runId, row.id, row.event);
    },
    async upsertLogs(rows) {
      const upsert = connection.prepare(
        `INSERT INTO agent_run_event_logs (thread_id, run_id, last_id, writer, expires_at) VALUES (?, ?, ?, ?, NULL) ${UPSERT_TAIL}`,
      );
      for (const row of rows) upsert.run(row.run.threadId, row.run.runId, row.lastId, row.writer);
    },
  };
}
