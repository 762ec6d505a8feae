import type { EntityManager } from 'typeorm';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import { appendClosingMessages } from './closing-message-rows.js';
import type { BatchOutcome } from '../database/group-commit.js';
import type { ThreadStatus } from '../contracts/session-records.js';
import type { FinishRunCommand } from '../contracts/session-store.interface.js';

/** The part of a better-sqlite3 connection used here (the package ships no types of its own). */
interface SqliteConnection {
  prepare(sql: string): { run(...params: unknown[]): { changes: number } };
}

// The lease fence: the thread still has an active run and it is this attempt (`last_run_key`).
// A run that lost its lease (taken over, or recovered as a crash) no longer matches. The step
// writes (step-rows.*.ts) use the same condition: keep them in step.
const SQLITE_THREAD = `UPDATE agent_threads SET status = ?, active_run_id = NULL, interrupt = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
  WHERE thread_id = ? AND last_run_key = ? AND active_run_id IS NOT NULL`;
const SQLITE_RUN = `UPDATE agent_runs SET status = ?, stop_reason = ?, error_code = ?, error_message = ?, iteration = ?, phase = ?,
  prompt_tokens = COALESCE(?, prompt_tokens), completion_tokens = COALESCE(?, completion_tokens), ended_at = ? WHERE run_key = ?`;

// One statement for the whole batch, one bind parameter per column (unnest), so no parameter limit.
const POSTGRES_BATCH = `WITH fenced AS (
  UPDATE agent_threads t SET status = v.status, active_run_id = NULL, interrupt = v.interrupt, lease_owner = NULL, lease_expires_at = NULL, updated_at = $1
    FROM unnest($2::varchar[], $3::varchar[], $4::varchar[], $5::text[]) AS v(thread_id, run_key, status, interrupt)
   WHERE t.thread_id = v.thread_id AND t.last_run_key = v.run_key AND t.active_run_id IS NOT NULL
  RETURNING v.run_key),
runs AS (
  UPDATE agent_runs r SET status = u.status, stop_reason = u.stop_reason, error_code = u.error_code, error_message = u.error_message,
         iteration = u.iteration, phase = u.phase, prompt_tokens = COALESCE(u.prompt_tokens, r.prompt_tokens),
         completion_tokens = COALESCE(u.completion_tokens, r.completion_tokens), ended_at = $1
    FROM unnest($3::varchar[], $6::varchar[], $7::varchar[], $8::varchar[], $9::text[], $10::int[], $11::varchar[], $12::int[], $13::int[])
         AS u(run_key, status, stop_reason, error_code, error_message, iteration, phase, prompt_tokens, completion_tokens)
   WHERE r.run_key = u.run_key AND u.run_key IN (SELECT run_key FROM fenced)
  RETURNING r.run_key)
SELECT run_key FROM fenced`;

/** The thread's status once the run ended: paused for approval, interrupted, or idle. */
function threadStatusOf(command: FinishRunCommand): ThreadStatus {
  if (!command.interrupt) return 'idle';
  return command.interrupt.reason === 'approval' ? 'awaiting_approval' : 'interrupted';
}

/** A run's end as the columns store it. */
function columnsOf(command: FinishRunCommand) {
  return {
    status: threadStatusOf(command),
    interrupt: command.interrupt ? JSON.stringify(command.interrupt) : null,
    runStatus: command.status,
    stopReason: command.stopReason,
    errorCode: command.errorCode ?? null,
    errorMessage: command.errorMessage ?? null,
    iteration: command.iteration,
    phase: command.phase,
    promptTokens: command.usage?.promptTokens ?? null,
    completionTokens: command.usage?.completionTokens ?? null,
  };
}

/**
 * Writes the ends of many runs inside the caller's transaction: for each run whose attempt
 * still holds its thread's lease, the thread's new status, marker and released lease, and the
 * run's record and its closing messages; a run that lost its lease gets `LeaseLostError` and
 * nothing of it is written.
 * `at` is the ISO time of `updated_at` and `ended_at`. On PostgreSQL one statement writes the
 * batch; on SQLite one prepared statement per table runs once per run.
 */
export async function writeFinishedRuns(
  manager: EntityManager,
  postgres: boolean,
  commands: readonly FinishRunCommand[],
  at: string,
): Promise<BatchOutcome<void>[]> {
  const written = postgres
    ? await writePostgres(manager, commands, at)
    : await writeSqlite(manager, commands, at);
  await appendClosingMessages(
    manager,
    commands.filter((command) => written.has(command.runKey)),
    at,
  );
  return commands.map((command) =>
    written.has(command.runKey)
      ? { ok: true, value: undefined }
      : { ok: false, error: new LeaseLostError(command.threadId, command.runKey) },
  );
}

/** The run keys among `runKeys` whose end is already recorded: a retry after a lost connection skips them. */
export async function alreadyFinished(
  manager: EntityManager,
  postgres: boolean,
  runKeys: readonly string[],
): Promise<Set<string>> {
  const rows = postgres
    ? ((await manager.query(
        `SELECT run_key FROM agent_runs WHERE run_key = ANY($1::varchar[]) AND ended_at IS NOT NULL`,
        [runKeys],
      )) as {
        run_key: string;
      }[])
    : ((await manager.query(
        `SELECT run_key FROM agent_runs WHERE run_key IN (SELECT value FROM json_each(?)) AND ended_at IS NOT NULL`,
        [JSON.stringify(runKeys)],
      )) as { run_key: string }[]);
  return new Set(rows.map((row) => row.run_key));
}

async function writePostgres(
  manager: EntityManager,
  commands: readonly FinishRunCommand[],
  at: string,
): Promise<Set<string>> {
  const rows = commands.map(columnsOf);
  const column = <K extends keyof ReturnType<typeof columnsOf>>(key: K) =>
    rows.map((row) => row[key]);
  const fenced = (await manager.query(POSTGRES_BATCH, [
    at,
    commands.map((c) => c.threadId),
    commands.map((c) => c.runKey),
    column('status'),
    column('interrupt'),
    column('runStatus'),
    column('stopReason'),
    column('errorCode'),
    column('errorMessage'),
    column('iteration'),
    column('phase'),
    column('promptTokens'),
    column('completionTokens'),
  ])) as { run_key: string }[];
  return new Set(fenced.map((row) => row.run_key));
}

async function writeSqlite(
  manager: EntityManager,
  commands: readonly FinishRunCommand[],
  at: string,
): Promise<Set<string>> {
  // The transaction's own connection: its prepared statements run synchronously, with no
  // per-statement round through the query runner.
  const connection = (await manager.queryRunner!.connect()) as SqliteConnection;
  const threads = connection.prepare(SQLITE_THREAD);
  const runs = connection.prepare(SQLITE_RUN);
  const written = new Set<string>();
  for (const command of commands) {
    const row = columnsOf(command);
    if (threads.run(row.status, row.interrupt, at, command.threadId, command.runKey).changes === 0)
      continue;
    runs.run(
      row.runStatus,
      row.stopReason,
      row.errorCode,
      row.errorMessage,
      row.iteration,
      row.phase,
      row.promptTokens,
      row.completionTokens,
      at,
      command.runKey,
    );
    written.add(command.runKey);
  }
  return written;
}
