import type { CheckpointTarget } from '../contracts/session-store.interface.js';
import type { StepCommit } from '../contracts/step-commit.js';

/** One run's step on its way to the database. */
export interface StepItem {
  target: CheckpointTarget;
  step: StepCommit;
}

/** How a step item came out of a batch: written, found written by an earlier attempt, or refused by the fence. */
export type StepWritten = 'written' | 'stored' | 'fenced';

/**
 * Splits a batch into rounds in which each thread appears at most once, keeping each thread's
 * items in order: one statement cannot update a thread's row twice, and a thread's second item
 * numbers its messages after the first's.
 */
export function roundsOf<T extends StepItem>(items: readonly T[]): T[][] {
  const rounds: T[][] = [];
  const seen = new Map<string, number>();
  for (const item of items) {
    const round = seen.get(item.target.threadId) ?? 0;
    seen.set(item.target.threadId, round + 1);
    (rounds[round] ??= []).push(item);
  }
  return rounds;
}

/** The state column's new text: JSON, null to clear, undefined to keep. */
export function stateText(step: StepCommit): string | null | undefined {
  if (step.state === undefined) return undefined;
  return step.state === null ? null : JSON.stringify(step.state);
}

/** Tool calls as the `tool_calls` column holds them. */
export function toolCallsText(calls: readonly unknown[] | undefined): string | null {
  return calls?.length ? JSON.stringify(calls) : null;
}
