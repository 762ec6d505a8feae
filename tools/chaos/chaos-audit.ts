import type { ExecutionLedger } from '../rolling/execution-ledger';
import type { ChaosUser } from './chaos-user';
import { auditEffects, type EffectAudit } from './effect-audit';
import type { RecordedRequest } from './request-record';
import type { StoreSnapshot, StoredMessage } from './store-snapshot';

/** What the audit found; every list must be empty for the run to pass. */
export interface ChaosAudit {
  threads: number;
  turns: { completed: number; cancelled: number; failed: string[] };
  /** Messages checked: every user message sent, and every message a stream reported finished. */
  messagesChecked: number;
  messagesLost: string[];
  /** Tool results stored twice for one call, or twice for one step of a turn. */
  messagesDuplicated: string[];
  toolExecutions: number;
  /** Starts of a tool call after its result was saved: finished work done again. */
  toolExecutionsDuplicated: string[];
  /** Second starts of a call before any result was saved (its first run was cut off, outcome unknown; the demo tool is idempotent). Allowed. */
  toolReRunsBeforeSave: number;
  /** Starts of a call with no saved result on a thread that is not waiting to resume. */
  toolExecutionsUnsaved: string[];
  /** The demo tool's effects by idempotency key: `duplicated` lists keys with two effects. */
  toolEffects: EffectAudit;
  runsStuckRunning: string[];
  /** Threads neither idle nor resumable (interrupted or awaiting approval, with a marker). */
  threadsNotResumable: string[];
  /** Threads left resumable at the end (allowed): `interrupted` or `awaiting_approval`. */
  threadsResumable: number;
  requests: number;
  /** 5xx answers with a retry path: 503 with `Retry-After`, or a gateway error whose turn then ended. */
  retried5xx: number;
  unexplained5xx: string[];
  /** Requests that got no answer (reset, refused), all retried. */
  networkErrors: number;
  /** `RUN_ERROR` codes the clients saw, with counts. */
  runErrors: Record<string, number>;
  /** The instances' own failures (see `ChaosFleet.problems`). */
  fleetProblems: string[];
}

/** A 5xx's verdict: retried (it had a retry path) or unexplained. */
function judge5xx(request: RecordedRequest, turnEnded: boolean): 'retried' | 'unexplained' {
  if (request.status === 503 && request.retryAfter !== undefined) return 'retried';
  if ((request.status === 502 || request.status === 504) && turnEnded) return 'retried';
  return 'unexplained';
}

/** Tool results in one thread: twice for one call, or twice for one step of one user turn. */
function duplicatedResults(threadId: string, messages: StoredMessage[]): string[] {
  const out: string[] = [];
  const stepOfCall = new Map(
    messages.flatMap((m) => m.toolCalls.map((c) => [c.id, c.step] as const)),
  );
  const byCall = new Map<string, number>();
  let turn = 0;
  let steps = new Map<number, number>();
  for (const m of messages) {
    if (m.role === 'user') [turn, steps] = [turn + 1, new Map()];
    if (m.role !== 'tool' || !m.toolCallId) continue;
    byCall.set(m.toolCallId, (byCall.get(m.toolCallId) ?? 0) + 1);
    const step = stepOfCall.get(m.toolCallId);
    if (step === undefined) continue;
    steps.set(step, (steps.get(step) ?? 0) + 1);
    if (steps.get(step) === 2) out.push(`${threadId} turn ${turn} step ${step} has two results`);
  }
  for (const [call, count] of byCall)
    if (count > 1) out.push(`${threadId} call ${call} stored ${count}×`);
  return out;
}

/**
 * Checks the end state against what the users sent and saw, the instances' execution ledger
 * and every HTTP answer: no message lost or stored twice, no finished tool call run again, no
 * tool effect made twice for one idempotency key, no
 * run left `running`, every thread idle or resumable, every 5xx on a retry path, every turn
 * ended (completed or cancelled).
 */
export function auditChaos(
  users: readonly ChaosUser[],
  store: StoreSnapshot,
  ledger: ExecutionLedger,
  fleetProblems: readonly string[],
): ChaosAudit {
  const audit: ChaosAudit = {
    threads: users.length,
    turns: { completed: 0, cancelled: 0, failed: [] },
    messagesChecked: 0,
    messagesLost: [],
    messagesDuplicated: [],
    toolExecutions: ledger.executions.length,
    toolExecutionsDuplicated: [],
    toolReRunsBeforeSave: 0,
    toolExecutionsUnsaved: [],
    toolEffects: auditEffects(store, ledger),
    runsStuckRunning: store.runsRunning.map((r) => `${r.threadId}/${r.runId}`),
    threadsNotResumable: [],
    threadsResumable: 0,
    requests: 0,
    retried5xx: 0,
    unexplained5xx: [],
    networkErrors: 0,
    runErrors: {},
    fleetProblems: [...fleetProblems],
  };
  const byThread = new Map<string, StoredMessage[]>();
  for (const m of store.messages)
    byThread.set(m.threadId, [...(byThread.get(m.threadId) ?? []), m]);
  const threadStatus = new Map(store.threads.map((t) => [t.threadId, t]));
  for (const thread of store.threads) {
    if (thread.status === 'idle') continue;
    if ((thread.status === 'interrupted' || thread.status === 'awaiting_approval') && thread.marked)
      audit.threadsResumable++;
    else
      audit.threadsNotResumable.push(
        `${thread.threadId} is ${thread.status}${thread.marked ? '' : ' without a marker'}`,
      );
  }
  for (const user of users) {
    const messages = byThread.get(user.threadId) ?? [];
    const stored = new Set(messages.map((m) => m.messageId));
    const expected = [...user.sentMessageIds, ...user.finishedMessageIds];
    audit.messagesChecked += expected.length;
    audit.messagesLost.push(
      ...expected.filter((id) => !stored.has(id)).map((id) => `${user.threadId}/${id}`),
    );
    if (stored.size !== messages.length)
      audit.messagesDuplicated.push(
        `${user.threadId}: ${messages.length - stored.size} ids stored twice`,
      );
    audit.messagesDuplicated.push(...duplicatedResults(user.threadId, messages));
    const ended = new Set(user.turns.filter((t) => t.outcome !== 'failed').map((t) => t.turn));
    for (const turn of user.turns) {
      if (turn.outcome === 'completed') audit.turns.completed++;
      else if (turn.outcome === 'cancelled') audit.turns.cancelled++;
      else
        audit.turns.failed.push(`${user.threadId} turn ${turn.turn}: ${turn.failure ?? 'failed'}`);
    }
    for (const request of user.requests) {
      audit.requests++;
      if (request.status === undefined) audit.networkErrors++;
      if ((request.status ?? 0) < 500) continue;
      if (judge5xx(request, ended.has(request.turn)) === 'retried') audit.retried5xx++;
      else
        audit.unexplained5xx.push(
          `${request.method} ${request.path} → ${request.status} ${request.code ?? ''} (${user.name} turn ${request.turn})`,
        );
    }
    for (const [code, count] of user.runErrors)
      audit.runErrors[code] = (audit.runErrors[code] ?? 0) + count;
  }
  auditExecutions(audit, ledger, store, threadStatus);
  return audit;
}

/** Compares the ledger's starts with the saved tool results: a start after the save is work done twice. */
function auditExecutions(
  audit: ChaosAudit,
  ledger: ExecutionLedger,
  store: StoreSnapshot,
  threads: Map<string, { status: string }>,
): void {
  const savedAt = new Map(
    store.messages
      .filter((m) => m.role === 'tool' && m.toolCallId)
      .map((m) => [m.toolCallId as string, m.createdAt]),
  );
  const starts = new Map<string, { threadId: string; at: number[] }>();
  for (const e of ledger.executions) {
    const entry = starts.get(e.toolCallId) ?? { threadId: e.threadId, at: [] };
    entry.at.push(e.startedAt);
    starts.set(e.toolCallId, entry);
  }
  for (const [toolCallId, { threadId, at }] of starts) {
    const saved = savedAt.get(toolCallId);
    if (saved === undefined) {
      if (threads.get(threadId)?.status !== 'interrupted')
        audit.toolExecutionsUnsaved.push(`${threadId} call ${toolCallId}`);
      continue;
    }
    const redone = at.filter((startedAt) => startedAt > saved);
    for (const startedAt of redone)
      audit.toolExecutionsDuplicated.push(
        `${threadId} call ${toolCallId} started ${startedAt - saved} ms after its result was saved`,
      );
    audit.toolReRunsBeforeSave += at.length - 1 - redone.length;
  }
}

/** The audit's broken promises, one line each; empty when it holds. */
export function auditProblems(audit: ChaosAudit): string[] {
  const lists: [string, readonly string[]][] = [
    ['messages lost', audit.messagesLost],
    ['messages duplicated', audit.messagesDuplicated],
    ['tool executions duplicated', audit.toolExecutionsDuplicated],
    ['tool executions without a saved result', audit.toolExecutionsUnsaved],
    [
      'tool effects duplicated (two effects with one idempotency key)',
      audit.toolEffects.duplicated,
    ],
    ['runs stuck running', audit.runsStuckRunning],
    ['threads neither finished nor resumable', audit.threadsNotResumable],
    ['5xx without a retry path', audit.unexplained5xx],
    ['turns that did not end', audit.turns.failed],
    ['instance failures', audit.fleetProblems],
  ];
  return lists
    .filter(([, items]) => items.length > 0)
    .map(([label, items]) => `${label}: ${items.length} (${items.slice(0, 5).join('; ')})`);
}
