import { randomUUID } from 'node:crypto';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { AgentVersionChange, NotRunCall } from '../agent/agent-release.js';
import type { ToolCallRecord } from '../contracts/session-records.js';
import type { InterruptedState } from '../contracts/interrupted-state.js';
import { findDanglingToolCalls } from './dangling-tool-calls.js';
import {
  defaultResumeMessage,
  NOT_COMPLETED_RESULT,
  OUTCOME_UNKNOWN_RESULT,
  type ResumeMessageTemplate,
} from './resume-message.js';
import { toolResultMessage } from './tool-result-message.js';

/** How a run request continues a thread's history. */
export interface ResumePlan {
  /** Results for calls that will not run now (recorded, or of unknown outcome): written before the run starts. */
  resolvedResults: AgentMessage[];
  /** Calls that never started, or of idempotent tools: run before the first reasoning call. */
  toRun: ToolCall[];
  /** Calls that would have run but are answered "not run" (a version change): their results are in `resolvedResults`. */
  notRun: NotRunCall[];
  /** The resume system message; null unless the thread was interrupted. */
  resumeMessage: AgentMessage | null;
}

/** What the planner knows about the tools and their executions. */
export interface ResumeFacts {
  /** True for a tool that is safe to run twice. @default none is */
  isIdempotent?: (toolName: string) => boolean;
  /** The execution records of the dangling calls, by tool-call id. @default none */
  toolCalls?: readonly ToolCallRecord[];
  /** Writes the resume message. @default defaultResumeMessage */
  resumeMessage?: ResumeMessageTemplate;
  /** Calls not to run, by call id (`screenPendingCalls`): answered with their result instead. @default none */
  notRun?: ReadonlyMap<string, NotRunCall>;
  /** The version change the resume crosses, told in the resume message. @default none */
  versionChange?: AgentVersionChange | null;
}

/**
 * Keeps the history valid for the chat format (every tool call answered) and tells the
 * model about an interruption. For each call left without a result: a finished execution
 * record gives its result (the tool is never run again); a call that never started, or a
 * call of an idempotent tool, is run; any other call that may have started is answered as
 * of unknown outcome instead of being run twice; a call that would run but that the version
 * screen refused (`facts.notRun`) is answered with its refusal. After a cancel or a failure (no
 * marker) nothing is run.
 */
export function planResume(
  history: readonly AgentMessage[],
  marker: InterruptedState | null,
  facts: ResumeFacts = {},
): ResumePlan {
  const isIdempotent = facts.isIdempotent ?? (() => false);
  const records = new Map((facts.toolCalls ?? []).map((record) => [record.toolCallId, record]));
  const markedStarted = new Set(
    marker?.pendingToolCalls.filter((call) => call.started).map((call) => call.id),
  );
  const mayHaveStarted = (call: ToolCall) => records.has(call.id) || markedStarted.has(call.id);
  const resolvedResults: AgentMessage[] = [];
  const toRun: ToolCall[] = [];
  const notRun: NotRunCall[] = [];
  const unknown: ToolCall[] = [];
  for (const call of findDanglingToolCalls(history)) {
    const record = records.get(call.id);
    if (record?.status === 'finished') {
      resolvedResults.push(toolResultMessage(call, record.result ?? ''));
    } else if (marker && (!mayHaveStarted(call) || isIdempotent(call.name))) {
      const refused = facts.notRun?.get(call.id);
      if (refused) notRun.push(refused);
      if (refused) resolvedResults.push(toolResultMessage(call, refused.result));
      else toRun.push(call);
    } else {
      unknown.push(call);
      resolvedResults.push(
        toolResultMessage(call, marker ? OUTCOME_UNKNOWN_RESULT : NOT_COMPLETED_RESULT),
      );
    }
  }
  const resumeMessage: AgentMessage | null = marker
    ? {
        id: randomUUID(),
        role: 'system',
        content: (facts.resumeMessage ?? defaultResumeMessage)({
          marker,
          rerun: toRun,
          unknown,
          notRun,
          versionChange: facts.versionChange ?? null,
          answerCutOff: lastAnswerCutOff(history),
        }),
      }
    : null;
  return { resolvedResults, toRun, notRun, resumeMessage };
}

/** Whether the newest assistant message was saved truncated by the stop. */
function lastAnswerCutOff(history: readonly AgentMessage[]): boolean {
  for (let i = history.length - 1; i >= 0; i--)
    if (history[i].role === 'assistant') return history[i].truncated === true;
  return false;
}
