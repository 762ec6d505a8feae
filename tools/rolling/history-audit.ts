import type { ExecutionLedger } from './execution-ledger';

interface HistoryMessage {
  id: string;
  role: 'user' | 'assistant' | 'tool' | 'system';
  content: string;
  toolCalls?: { id: string; function: { name: string; arguments: string } }[];
  toolCallId?: string;
  createdAt: string;
}

/** What the audit needs of a client session: its thread, its user, and what it sent and saw. */
export interface AuditedSession {
  readonly threadId: string;
  readonly token: string;
  /** Ids of the user messages the service accepted. */
  readonly acceptedMessageIds: readonly string[];
  /** Ids of the messages the streams reported finished (saved). */
  readonly finishedMessageIds: ReadonlySet<string>;
}

/** What the stored histories and the execution ledger say, over all threads. */
export interface HistoryAudit {
  threads: number;
  /** User messages accepted plus messages the streams reported finished: each must be stored. */
  messagesChecked: number;
  /** Ids among those that are not in their thread's history. Must be empty. */
  messagesLost: string[];
  /** Message ids stored more than once. Must be 0. */
  messagesDuplicated: number;
  /** A step of a turn with more than one tool result (work done twice under new ids). Must be empty. */
  stepsRepeated: string[];
  /** Turns without every step's result and a final answer. Must be empty. */
  turnsIncomplete: string[];
  /** Threads not `idle` at the end. Must be empty. */
  threadsNotIdle: string[];
  /** Starts of the demo tool, over all instances. */
  toolExecutions: number;
  /** Starts of a tool call after its result had been saved: finished work redone. Must be empty. */
  toolExecutionsDuplicated: string[];
  /**
   * Second starts of a call whose first run was cut off before its result was saved (a killed
   * instance); allowed because the demo tool is idempotent, and never after a save.
   */
  toolReRunsBeforeSave: number;
  /** Starts of a call that has no saved result at all. Must be empty. */
  toolExecutionsUnsaved: string[];
}

/** How long reading one thread (its body included) may take, in ms. */
const READ_TIMEOUT_MS = 30_000;

async function getJson<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(READ_TIMEOUT_MS),
  });
  if (response.status !== 200)
    throw new Error(`GET ${url}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A thread's whole history, in order, following `nextCursor` page by page. */
async function getHistory(url: string, token: string): Promise<HistoryMessage[]> {
  const messages: HistoryMessage[] = [];
  let cursor: string | null = null;
  do {
    const query = `limit=1000${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const page: { messages: HistoryMessage[]; nextCursor: string | null } = await getJson(
      `${url}/messages?${query}`,
      token,
    );
    messages.push(...page.messages);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return messages;
}

function stepOf(call: { function: { arguments: string } } | undefined): number | undefined {
  try {
    return call ? (JSON.parse(call.function.arguments) as { step?: number }).step : undefined;
  } catch {
    return undefined;
  }
}

/** Checks one thread's history turn by turn: each step once, then a final answer. */
function auditTurns(
  threadId: string,
  messages: HistoryMessage[],
  steps: number,
  audit: HistoryAudit,
): void {
  const calls = new Map(
    messages.flatMap((m) => (m.toolCalls ?? []).map((call) => [call.id, call] as const)),
  );
  const turns: HistoryMessage[][] = [];
  for (const message of messages) {
    if (message.role === 'user') turns.push([]);
    else turns.at(-1)?.push(message);
  }
  turns.forEach((turn, index) => {
    const results = new Map<number, number>();
    for (const message of turn.filter((m) => m.role === 'tool')) {
      const step = stepOf(calls.get(message.toolCallId ?? ''));
      if (step !== undefined) results.set(step, (results.get(step) ?? 0) + 1);
    }
    for (const [step, count] of results)
      if (count > 1)
        audit.stepsRepeated.push(`${threadId} turn ${index + 1} step ${step} ×${count}`);
    const last = turn.filter((m) => m.role === 'assistant').at(-1);
    const allSteps = Array.from({ length: steps }, (_, i) => i + 1).every((step) =>
      results.has(step),
    );
    if (!allSteps || !last || last.toolCalls?.length)
      audit.turnsIncomplete.push(`${threadId} turn ${index + 1}`);
  });
}

/** Compares the ledger with the saved tool results: a start after the save is redone work. */
function auditExecutions(
  ledger: ExecutionLedger,
  savedAt: Map<string, number>,
  audit: HistoryAudit,
): void {
  const byCall = new Map<string, number[]>();
  for (const execution of ledger.executions) {
    const starts = byCall.get(execution.toolCallId) ?? [];
    starts.push(execution.startedAt);
    byCall.set(execution.toolCallId, starts);
  }
  audit.toolExecutions = ledger.executions.length;
  for (const [toolCallId, starts] of byCall) {
    const saved = savedAt.get(toolCallId);
    if (saved === undefined) {
      audit.toolExecutionsUnsaved.push(toolCallId);
      continue;
    }
    const redone = starts.filter((startedAt) => startedAt > saved);
    for (const startedAt of redone)
      audit.toolExecutionsDuplicated.push(
        `${toolCallId} started ${startedAt - saved} ms after its result was saved`,
      );
    audit.toolReRunsBeforeSave += starts.length - 1 - redone.length;
  }
}

/**
 * Reads every session's thread through the public API and checks it against what its client
 * sent and saw, and against the execution ledger: nothing lost, nothing stored twice, no step
 * done twice, every turn finished, finished work never redone.
 */
export async function auditHistories(
  baseUrl: string,
  sessions: readonly AuditedSession[],
  ledger: ExecutionLedger,
  steps: number,
): Promise<HistoryAudit> {
  const audit: HistoryAudit = {
    threads: sessions.length,
    messagesChecked: 0,
    messagesLost: [],
    messagesDuplicated: 0,
    stepsRepeated: [],
    turnsIncomplete: [],
    threadsNotIdle: [],
    toolExecutions: 0,
    toolExecutionsDuplicated: [],
    toolReRunsBeforeSave: 0,
    toolExecutionsUnsaved: [],
  };
  const savedAt = new Map<string, number>();
  for (const session of sessions) {
    const url = `${baseUrl}/v1/threads/${encodeURIComponent(session.threadId)}`;
    const [messages, thread] = await Promise.all([
      getHistory(url, session.token),
      getJson<{ status: string }>(url, session.token),
    ]);
    const ids = new Set(messages.map((m) => m.id));
    audit.messagesDuplicated += messages.length - ids.size;
    const expected = [...session.acceptedMessageIds, ...session.finishedMessageIds];
    audit.messagesChecked += expected.length;
    audit.messagesLost.push(
      ...expected.filter((id) => !ids.has(id)).map((id) => `${session.threadId}/${id}`),
    );
    if (thread.status !== 'idle')
      audit.threadsNotIdle.push(`${session.threadId} is ${thread.status}`);
    for (const m of messages)
      if (m.role === 'tool' && m.toolCallId) savedAt.set(m.toolCallId, Date.parse(m.createdAt));
    auditTurns(session.threadId, messages, steps, audit);
  }
  auditExecutions(ledger, savedAt, audit);
  return audit;
}
