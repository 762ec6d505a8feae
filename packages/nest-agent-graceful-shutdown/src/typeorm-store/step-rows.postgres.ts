import { createHash } from 'node:crypto';
import type { PostgresConnection } from './session-database.js';
import { stateText, toolCallsText, type StepItem, type StepWritten } from './step-rows.js';

// One statement writes a round of steps (each thread at most once), one bind parameter per
// column (unnest), so no parameter limit and one round trip. The thread's fenced update is the
// first data-modifying step and every other one joins its RETURNING: a step whose run lost its
// lease (the fence of finished-run-rows.ts: keep the two in step) matches no thread row and writes
// nothing. A retry ($10) first skips the steps whose first message an unseen commit stored.
// A tool message names its thread (x.thread_id) so the update of the call it finishes goes by
// the call's key, and its step's fence is checked against the fenced steps read once (an array):
// joined on t instead, a generic plan of the named statement joined every message with every
// step of the batch.
const statement = (leaseUntilSql: string) => `WITH v AS (
  SELECT * FROM unnest($2::int[], $3::varchar[], $4::varchar[], $5::int[], $6::varchar[], $7::int[], $8::varchar[], $9::text[])
    AS v(n, thread_id, run_key, iteration, phase, added, first_id, state)
),
stored AS (
  SELECT v.n FROM v WHERE $10::boolean AND v.first_id IS NOT NULL
     AND EXISTS (SELECT 1 FROM agent_messages m WHERE m.thread_id = v.thread_id AND m.message_id = v.first_id)
),
t AS (
  UPDATE agent_threads t SET message_count = t.message_count + v.added,
         run_state = CASE WHEN v.n = ANY($11::int[]) THEN v.state ELSE t.run_state END,
         updated_at = $1, lease_expires_at = ${leaseUntilSql}
    FROM v
   WHERE t.thread_id = v.thread_id AND t.last_run_key = v.run_key AND t.active_run_id IS NOT NULL
     AND v.n NOT IN (SELECT n FROM stored)
  RETURNING v.n, t.thread_id, t.message_count - v.added AS first_seq, v.run_key, v.iteration, v.phase
),
x AS (
  SELECT * FROM unnest($12::int[], $13::int[], $14::varchar[], $15::varchar[], $16::text[], $17::text[], $18::varchar[], $19::boolean[], $20::varchar[], $25::varchar[])
    AS x(n, k, id, role, content, tool_calls, tool_call_id, truncated, run_id, thread_id)
),
m AS (
  INSERT INTO agent_messages (thread_id, seq, message_id, role, content, tool_calls, tool_call_id, truncated, run_id, created_at)
  SELECT t.thread_id, t.first_seq + x.k, x.id, x.role, x.content, x.tool_calls, x.tool_call_id, x.truncated, x.run_id, $1
    FROM x JOIN t ON t.n = x.n
),
f AS (
  UPDATE agent_tool_calls c SET status = 'finished', result = x.content, finished_at = $1
    FROM x WHERE x.role = 'tool' AND c.thread_id = x.thread_id AND c.tool_call_id = x.tool_call_id AND x.n = ANY (ARRAY(SELECT n FROM t))
),
s AS (
  INSERT INTO agent_tool_calls (thread_id, tool_call_id, run_key, tool_name, arguments, status, result, started_at, finished_at)
  SELECT t.thread_id, c.id, t.run_key, c.name, c.arguments, 'started', NULL, $1, NULL
    FROM unnest($21::int[], $22::varchar[], $23::varchar[], $24::text[]) AS c(n, id, name, arguments) JOIN t ON t.n = c.n
  ON CONFLICT (thread_id, tool_call_id) DO UPDATE SET run_key = EXCLUDED.run_key, status = EXCLUDED.status, result = EXCLUDED.result,
     started_at = EXCLUDED.started_at, finished_at = EXCLUDED.finished_at
),
r AS (
  UPDATE agent_runs r SET iteration = t.iteration, phase = t.phase FROM t
   WHERE r.run_key = t.run_key AND (r.iteration, r.phase) IS DISTINCT FROM (t.iteration, t.phase)
)
SELECT n, 'written' AS outcome FROM t UNION ALL SELECT n, 'stored' FROM stored`;

const named = new Map<string, { name: string; text: string }>();

/**
 * The statement for this lease length, named: each connection parses and plans it once, not at
 * every step (its text is long, and planning it costs more than running it).
 */
function prepared(leaseUntilSql: string): { name: string; text: string } {
  let found = named.get(leaseUntilSql);
  if (!found) {
    const text = statement(leaseUntilSql);
    found = {
      name: `agent_step_commit_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`,
      text,
    };
    named.set(leaseUntilSql, found);
  }
  return found;
}

/**
 * Writes a round of steps (no thread twice) in one statement, atomic on its own: PostgreSQL
 * runs a statement with data-modifying CTEs as one unit, so no BEGIN and COMMIT round trips.
 * `at` is the ISO time of `updated_at` and `created_at`; `leaseUntilSql` the lease's new end on
 * the database's clock; `retry` true when an earlier attempt may have committed unseen.
 */
export async function writeStepsPostgres(
  connection: PostgresConnection,
  items: readonly StepItem[],
  at: string,
  leaseUntilSql: string,
  retry: boolean,
): Promise<StepWritten[]> {
  const columns = {
    n: [] as number[],
    thread: [] as string[],
    runKey: [] as string[],
    iteration: [] as number[],
    phase: [] as string[],
  };
  const added: number[] = [];
  const firstIds: (string | null)[] = [];
  const states: (string | null)[] = [];
  const stateSet: number[] = [];
  const msg = {
    n: [] as number[],
    k: [] as number[],
    id: [] as string[],
    role: [] as string[],
    content: [] as string[],
  };
  const msgMore = {
    toolCalls: [] as (string | null)[],
    toolCallId: [] as (string | null)[],
    truncated: [] as boolean[],
    runId: [] as string[],
    threadId: [] as string[],
  };
  const call = {
    n: [] as number[],
    id: [] as string[],
    name: [] as string[],
    arguments: [] as string[],
  };
  items.forEach(({ target, step }, n) => {
    const messages = step.messages ?? [];
    columns.n.push(n);
    columns.thread.push(target.threadId);
    columns.runKey.push(target.runKey);
    columns.iteration.push(target.iteration);
    columns.phase.push(target.phase);
    added.push(messages.length);
    firstIds.push(messages[0]?.id ?? null);
    const state = stateText(step);
    states.push(state ?? null);
    if (state !== undefined) stateSet.push(n);
    messages.forEach((message, k) => {
      msg.n.push(n);
      msg.k.push(k);
      msg.id.push(message.id);
      msg.role.push(message.role);
      msg.content.push(message.content);
      msgMore.toolCalls.push(toolCallsText(message.toolCalls));
      msgMore.toolCallId.push(message.toolCallId ?? null);
      msgMore.truncated.push(message.truncated === true);
      msgMore.runId.push(target.runId);
      msgMore.threadId.push(target.threadId);
    });
    for (const started of step.startedCalls ?? []) {
      call.n.push(n);
      call.id.push(started.id);
      call.name.push(started.name);
      call.arguments.push(started.arguments);
    }
  });
  const { rows } = await connection.query<{ n: number; outcome: 'written' | 'stored' }>({
    ...prepared(leaseUntilSql),
    values: [
      at,
      columns.n,
      columns.thread,
      columns.runKey,
      columns.iteration,
      columns.phase,
      added,
      firstIds,
      states,
      retry,
      stateSet,
      msg.n,
      msg.k,
      msg.id,
      msg.role,
      msg.content,
      msgMore.toolCalls,
      msgMore.toolCallId,
      msgMore.truncated,
      msgMore.runId,
      call.n,
      call.id,
      call.name,
      call.arguments,
      msgMore.threadId,
    ],
  });
  const outcomes: StepWritten[] = items.map(() => 'fenced');
  for (const row of rows) outcomes[row.n] = row.outcome;
  return outcomes;
}
