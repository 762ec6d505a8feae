import type { EntityManager } from 'typeorm';
import { stateText, toolCallsText, type StepItem, type StepWritten } from './step-rows.js';

/** The part of a better-sqlite3 connection used here (the package ships no types of its own). */
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
}

interface SqliteStatement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
}

// The lease fence of finished-run-rows.ts: keep the two in step.
const THREAD = (
  leaseUntilSql: string,
) => `UPDATE agent_threads SET message_count = message_count + ?,
  run_state = CASE WHEN ? THEN ? ELSE run_state END, updated_at = ?, lease_expires_at = ${leaseUntilSql}
  WHERE thread_id = ? AND last_run_key = ? AND active_run_id IS NOT NULL RETURNING message_count`;
const MESSAGE = `INSERT INTO agent_messages (thread_id, seq, message_id, role, content, tool_calls, tool_call_id, truncated, run_id, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const FINISH = `UPDATE agent_tool_calls SET status = 'finished', result = ?, finished_at = ? WHERE thread_id = ? AND tool_call_id = ?`;
const START = `INSERT INTO agent_tool_calls (thread_id, tool_call_id, run_key, tool_name, arguments, status, result, started_at, finished_at)
  VALUES (?, ?, ?, ?, ?, 'started', NULL, ?, NULL)
  ON CONFLICT (thread_id, tool_call_id) DO UPDATE SET run_key = excluded.run_key, status = excluded.status, result = excluded.result,
     started_at = excluded.started_at, finished_at = excluded.finished_at`;
// A run's progress changes less often than its steps: an unchanged row is not rewritten.
const RUN = `UPDATE agent_runs SET iteration = ?, phase = ? WHERE run_key = ? AND (iteration IS NOT ? OR phase IS NOT ?)`;

interface Statements {
  leaseUntilSql: string;
  thread: SqliteStatement;
  message: SqliteStatement;
  finish: SqliteStatement;
  start: SqliteStatement;
  run: SqliteStatement;
}

// Prepared once per connection and kept: compiling them per step would cost more than running them.
const prepared = new WeakMap<SqliteConnection, Statements>();

function statementsOf(connection: SqliteConnection, leaseUntilSql: string): Statements {
  let statements = prepared.get(connection);
  if (!statements || statements.leaseUntilSql !== leaseUntilSql) {
    statements = {
      leaseUntilSql,
      thread: connection.prepare(THREAD(leaseUntilSql)),
      message: connection.prepare(MESSAGE),
      finish: connection.prepare(FINISH),
      start: connection.prepare(START),
      run: connection.prepare(RUN),
    };
    prepared.set(connection, statements);
  }
  return statements;
}

/**
 * Writes a batch of steps inside the caller's transaction, in order, each under a savepoint of
 * its own: a step whose run lost its lease writes nothing and answers `fenced`, one the database
 * refuses answers its error, and neither fails the others. The statements run synchronously on
 * the transaction's connection, with no round through the query runner per statement.
 */
export async function writeStepsSqlite(
  manager: EntityManager,
  items: readonly StepItem[],
  at: string,
  leaseUntilSql: string,
): Promise<(StepWritten | Error)[]> {
  const connection = (await manager.queryRunner!.connect()) as SqliteConnection;
  const statements = statementsOf(connection, leaseUntilSql);
  return items.map((item) => {
    connection.exec('SAVEPOINT step');
    try {
      const outcome = writeOne(statements, item, at);
      connection.exec('RELEASE step');
      return outcome;
    } catch (error) {
      connection.exec('ROLLBACK TO step');
      connection.exec('RELEASE step');
      return error instanceof Error ? error : new Error(String(error));
    }
  });
}

function writeOne(statements: Statements, { target, step }: StepItem, at: string): StepWritten {
  const messages = step.messages ?? [];
  const state = stateText(step);
  const updated = statements.thread.get(
    messages.length,
    state === undefined ? 0 : 1,
    state ?? null,
    at,
    target.threadId,
    target.runKey,
  ) as { message_count: number } | undefined;
  if (!updated) return 'fenced';
  for (const call of step.startedCalls ?? [])
    statements.start.run(target.threadId, call.id, target.runKey, call.name, call.arguments, at);
  const firstSeq = updated.message_count - messages.length;
  messages.forEach((message, index) => {
    const toolCallId = message.toolCallId ?? null;
    statements.message.run(
      target.threadId,
      firstSeq + index,
      message.id,
      message.role,
      message.content,
      toolCallsText(message.toolCalls),
      toolCallId,
      message.truncated === true ? 1 : 0,
      target.runId,
      at,
    );
    if (message.role === 'tool' && toolCallId)
      statements.finish.run(message.content, at, target.threadId, toolCallId);
  });
  statements.run.run(target.iteration, target.phase, target.runKey, target.iteration, target.phase);
  return 'written';
}
