import type { AgentMessage } from '../../agent/agent-message.js';
import type { DurableAgent } from '../../handle/run-handle.interface.js';
import type { ToolExecution } from './durability-store.js';

/**
 * The history breaks the chat format when a tool call is not answered exactly once by a later
 * tool message, or a tool message answers no earlier call: a provider refuses such a history.
 */
export function historyFailures(messages: readonly AgentMessage[]): string[] {
  const failures: string[] = [];
  const asked = new Map<string, string>();
  const answers = new Map<string, number>();
  for (const message of messages) {
    for (const call of message.role === 'assistant' ? (message.toolCalls ?? []) : [])
      asked.set(call.id, call.name);
    if (message.role !== 'tool') continue;
    const id = message.toolCallId ?? '';
    if (!asked.has(id))
      failures.push(`the history has a tool message for call "${id}" with no earlier call`);
    answers.set(id, (answers.get(id) ?? 0) + 1);
  }
  for (const [id, name] of asked) {
    const count = answers.get(id) ?? 0;
    if (count !== 1)
      failures.push(`the history answers ${name} call "${id}" ${count} times (once expected)`);
  }
  return failures;
}

/**
 * A tool that is not idempotent ran more than once: for one call id across attempts, or on the
 * same arguments more than once and more often than in the uninterrupted run (a model asking
 * again after a result of unknown outcome).
 */
export function executionFailures(
  executions: readonly ToolExecution[],
  baseline: readonly ToolExecution[],
  isIdempotent: (tool: string) => boolean,
): string[] {
  const failures: string[] = [];
  const once = executions.filter(({ call }) => !isIdempotent(call.name));
  for (const [id, runs] of groupBy(once, ({ call }) => call.id)) {
    if (runs.length > 1)
      failures.push(
        `${runs[0].call.name} call "${id}" ran ${runs.length} times (attempts ${runs.map((run) => run.attempt).join(', ')})`,
      );
  }
  const before = groupBy(baseline, ({ call }) => argumentsKey(call));
  for (const [key, runs] of groupBy(once, ({ call }) => argumentsKey(call))) {
    const expected = before.get(key)?.length ?? 0;
    if (runs.length > Math.max(expected, 1)) {
      failures.push(
        `${runs[0].call.name} ran ${runs.length} times on ${runs[0].call.arguments} (${expected} in the uninterrupted run)`,
      );
    }
  }
  return failures;
}

/** Tools that ran on the resumed release though it has no such tool, or refuses the call's arguments. */
export async function releaseFailures(
  executions: readonly ToolExecution[],
  agent: DurableAgent,
): Promise<string[]> {
  const failures: string[] = [];
  for (const { call } of executions) {
    if (!agent.toolTraits(call.name)) {
      failures.push(
        `${call.name} call "${call.id}" ran though the new version has no tool ${call.name}`,
      );
      continue;
    }
    const check = (await agent.checkToolInput?.(call)) ?? { ok: true };
    if (!check.ok)
      failures.push(
        `${call.name} call "${call.id}" ran on arguments the new version refuses: ${check.error}`,
      );
  }
  return failures;
}

/** The text of the last assistant message: the run's final answer. */
export function finalAnswerOf(messages: readonly AgentMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i].role === 'assistant') return messages[i].content;
  return '';
}

function argumentsKey(call: { name: string; arguments: string }): string {
  return `${call.name} ${canonical(call.arguments)}`;
}

/** Arguments compared as JSON values, whatever their key order or spacing. */
function canonical(text: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(text)));
  } catch {
    return text;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
