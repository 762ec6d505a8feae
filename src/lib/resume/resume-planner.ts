import { randomUUID } from 'node:crypto';
import type { AgentMessage, ToolCall } from '../agent/agent-message';
import type { InterruptedState } from '../shutdown/interrupted-state';
import { findDanglingToolCalls } from './dangling-tool-calls';
import { NOT_COMPLETED_RESULT, OUTCOME_UNKNOWN_RESULT, resumeMessageText } from './resume-message';

/** How a run request continues a thread's history. */
export interface ResumePlan {
  /** Results for calls that may have run: written before the run starts. */
  resolvedResults: AgentMessage[];
  /** Calls that never started: run before the first reasoning call. */
  toRun: ToolCall[];
  /** The resume system message; null unless the thread was interrupted. */
  resumeMessage: AgentMessage | null;
}

/**
 * Keeps the history valid for the chat format (every tool call answered) and tells the
 * model about an interruption. A call the marker says never started, or a call of an
 * idempotent tool, is run; any other call left without a result is answered as unknown
 * instead of being run twice.
 */
export function planResume(
  history: readonly AgentMessage[],
  marker: InterruptedState | null,
  isIdempotent: (toolName: string) => boolean = () => false,
): ResumePlan {
  const dangling = findDanglingToolCalls(history);
  const notStarted = new Set(marker?.pendingToolCalls.filter((call) => !call.started).map((call) => call.id));
  const canRun = (call: ToolCall) => marker !== null && (notStarted.has(call.id) || isIdempotent(call.name));
  const toRun = dangling.filter(canRun);
  const unknown = dangling.filter((call) => !canRun(call));
  const resolvedResults = unknown.map(
    (call): AgentMessage => ({
      id: randomUUID(),
      role: 'tool',
      toolCallId: call.id,
      content: marker ? OUTCOME_UNKNOWN_RESULT : NOT_COMPLETED_RESULT,
    }),
  );
  const resumeMessage: AgentMessage | null = marker
    ? { id: randomUUID(), role: 'system', content: resumeMessageText(marker, toRun, unknown) }
    : null;
  return { resolvedResults, toRun, resumeMessage };
}
