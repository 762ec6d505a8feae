import { Client } from 'pg';

/** One thread row, as the audit reads it. */
export interface StoredThread {
  threadId: string;
  status: string;
  /** Whether the thread carries an `InterruptedState` marker (resumable). */
  marked: boolean;
}

/** One message row, in its thread's order. */
export interface StoredMessage {
  threadId: string;
  messageId: string;
  role: string;
  toolCallId: string | null;
  /** The step of the demo tool call, for an assistant message that asked for one (by call id). */
  toolCalls: { id: string; step?: number }[];
  /** Epoch ms. */
  createdAt: number;
}

/** One effect row of the demo tool's ledger (`demo_tool_effects`). */
export interface StoredEffect {
  threadId: string;
  toolCallId: string;
  idempotencyKey: string;
  fencingToken: number;
}

/** What PostgreSQL holds at the end of the run: every thread, every message, the runs still `running`, the demo tool's effects. */
export interface StoreSnapshot {
  threads: StoredThread[];
  messages: StoredMessage[];
  runsRunning: { threadId: string; runId: string }[];
  effects: StoredEffect[];
}

/** How long one query may take, in ms. */
const QUERY_TIMEOUT_MS = 30_000;

function toolCallsOf(json: string | null): StoredMessage['toolCalls'] {
  if (!json) return [];
  const calls = JSON.parse(json) as { id: string; function?: { arguments?: string } }[];
  return calls.map((call) => {
    try {
      return {
        id: call.id,
        step: (JSON.parse(call.function?.arguments ?? '{}') as { step?: number }).step,
      };
    } catch {
      return { id: call.id };
    }
  });
}

/**
 * Reads the session tables straight from PostgreSQL (not through the service, which could hide
 * a row): the threads whose id starts with `threadPrefix`, their messages in order, every run
 * still recorded as `running`, and the demo tool's recorded effects on those threads.
 */
export async function readStore(databaseUrl: string, threadPrefix: string): Promise<StoreSnapshot> {
  const client = new Client({
    connectionString: databaseUrl,
    statement_timeout: QUERY_TIMEOUT_MS,
    connectionTimeoutMillis: QUERY_TIMEOUT_MS,
  });
  await client.connect();
  try {
    const like = `${threadPrefix}-%`;
    const threads = await client.query<{ thread_id: string; status: string; marked: boolean }>(
      'SELECT thread_id, status, interrupt IS NOT NULL AS marked FROM agent_threads WHERE thread_id LIKE $1 ORDER BY thread_id',
      [like],
    );
    const messages = await client.query<{
      thread_id: string;
      message_id: string;
      role: string;
      tool_call_id: string | null;
      tool_calls: string | null;
      created_at: string;
    }>(
      'SELECT thread_id, message_id, role, tool_call_id, tool_calls, created_at FROM agent_messages WHERE thread_id LIKE $1 ORDER BY thread_id, seq',
      [like],
    );
    const runs = await client.query<{ thread_id: string; run_id: string }>(
      "SELECT thread_id, run_id FROM agent_runs WHERE status = 'running' AND thread_id LIKE $1 ORDER BY thread_id",
      [like],
    );
    const effects = await client.query<{
      thread_id: string;
      tool_call_id: string;
      idempotency_key: string;
      fencing_token: number;
    }>(
      'SELECT thread_id, tool_call_id, idempotency_key, fencing_token FROM demo_tool_effects WHERE thread_id LIKE $1 ORDER BY thread_id, idempotency_key',
      [like],
    );
    return {
      threads: threads.rows.map((r) => ({
        threadId: r.thread_id,
        status: r.status,
        marked: r.marked,
      })),
      messages: messages.rows.map((r) => ({
        threadId: r.thread_id,
        messageId: r.message_id,
        role: r.role,
        toolCallId: r.tool_call_id,
        toolCalls: toolCallsOf(r.tool_calls),
        createdAt: Date.parse(r.created_at),
      })),
      runsRunning: runs.rows.map((r) => ({ threadId: r.thread_id, runId: r.run_id })),
      effects: effects.rows.map((r) => ({
        threadId: r.thread_id,
        toolCallId: r.tool_call_id,
        idempotencyKey: r.idempotency_key,
        fencingToken: r.fencing_token,
      })),
    };
  } finally {
    await client.end();
  }
}
