import type { EntityManager } from 'typeorm';
import type { StartedRun, StartRunCommand } from '../contracts/session-store.interface.js';
import { RECORD_FORMAT_VERSION } from './record-format.js';

/**
 * The usual start of a run on PostgreSQL in one statement: the thread taken if it is free (no
 * active run, in a format this release understands, its last run the one the caller planned
 * from) or created if it does not exist, with the run, the lease and the fencing token, then the
 * run's record and its messages. A start it cannot make (the thread busy, moved on or in a
 * newer format; two creating it at once) writes nothing and returns no row: the caller then
 * runs the transaction that says why. A start with a run-slot limit, calls answered "not run"
 * or a queued run goes through that transaction at once.
 */
const START = `WITH taken AS (
  UPDATE agent_threads SET lease_epoch = lease_epoch + 1, message_count = message_count + $5, status = 'running',
         active_run_id = $3, last_run_key = $4, lease_owner = $6, lease_expires_at = %LEASE%, updated_at = $7
   WHERE thread_id = $1 AND active_run_id IS NULL AND format_version <= $8
     AND (NOT $9::boolean OR last_run_key IS NOT DISTINCT FROM $10::varchar)
  RETURNING message_count - $5 AS base, lease_epoch
), created AS (
  INSERT INTO agent_threads (thread_id, owner_id, status, message_count, active_run_id, last_run_key, interrupt, run_state,
                             lease_owner, lease_expires_at, lease_epoch, format_version, queued_runs, created_at, updated_at)
  SELECT $1, $2, 'running', $5, $3, $4, NULL, NULL, $6, %LEASE%, 1, $8, 0, $7, $7
   WHERE NOT EXISTS (SELECT 1 FROM agent_threads WHERE thread_id = $1) AND (NOT $9::boolean OR $10::varchar IS NULL)
  ON CONFLICT (thread_id) DO NOTHING
  RETURNING 0 AS base, lease_epoch
), started AS (
  SELECT base, lease_epoch FROM taken UNION ALL SELECT base, lease_epoch FROM created
), run AS (
  INSERT INTO agent_runs (run_key, thread_id, run_id, status, stop_reason, error_code, error_message, iteration, phase,
                          instance_id, agent_name, agent_version, agent_fingerprint, started_at, ended_at)
  SELECT $4, $1, $3, 'running', NULL, NULL, NULL, 0, NULL, $6, $11, $12, $13, $7, NULL FROM started
), messages AS (
  INSERT INTO agent_messages (thread_id, seq, message_id, role, content, tool_calls, tool_call_id, truncated, run_id, created_at)
  SELECT $1, started.base + m.n - 1, m.id, m.role, m.content, m.tool_calls, m.tool_call_id, m.truncated, $3, $7
    FROM started, unnest($14::varchar[], $15::varchar[], $16::text[], $17::text[], $18::varchar[], $19::boolean[])
         WITH ORDINALITY AS m(id, role, content, tool_calls, tool_call_id, truncated, n)
)
SELECT lease_epoch FROM started`;

/** The fencing token of a start already written: the thread's last attempt is the run's. */
const STARTED = `SELECT lease_epoch FROM agent_threads WHERE thread_id = $1 AND last_run_key = $2`;

/** Whether `command` can go as one statement (see `START`). */
export function startsInOneStatement(command: StartRunCommand): boolean {
  return (
    command.maxActiveRunsPerOwner === undefined &&
    !command.notRunToolCalls?.length &&
    command.queuedRunId === undefined
  );
}

/**
 * Starts the run in one statement; null when the statement could not (nothing written).
 * @param leaseUntilSql the lease's end, a SQL time on the database's clock.
 */
export async function startRunInOneStatement(
  manager: EntityManager,
  command: StartRunCommand,
  at: string,
  leaseUntilSql: string,
  attempt: number,
): Promise<StartedRun | null> {
  // A retry after a lost connection: the first attempt may have committed unseen.
  if (attempt > 0) {
    const [done] = (await manager.query(STARTED, [command.threadId, command.runKey])) as {
      lease_epoch: number;
    }[];
    if (done) return { fencingToken: done.lease_epoch };
  }
  const { messages } = command;
  const expected = command.expectedLastRunKey;
  const rows = (await manager.query(START.replaceAll('%LEASE%', leaseUntilSql), [
    command.threadId,
    command.ownerId,
    command.runId,
    command.runKey,
    messages.length,
    command.instanceId,
    at,
    RECORD_FORMAT_VERSION,
    expected !== undefined,
    expected ?? null,
    command.agentName ?? null,
    command.agentRelease?.version ?? null,
    command.agentRelease?.fingerprint ?? null,
    messages.map((m) => m.id),
    messages.map((m) => m.role),
    messages.map((m) => m.content),
    messages.map((m) => (m.toolCalls?.length ? JSON.stringify(m.toolCalls) : null)),
    messages.map((m) => m.toolCallId ?? null),
    messages.map((m) => m.truncated === true),
  ])) as { lease_epoch: number }[];
  return rows[0] ? { fencingToken: rows[0].lease_epoch } : null;
}
