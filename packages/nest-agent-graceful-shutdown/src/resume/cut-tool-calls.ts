import type { AgentMessage } from '../agent/agent-message.js';
import { findDanglingToolCalls } from './dangling-tool-calls.js';
import { NOT_COMPLETED_RESULT } from './resume-message.js';
import { toolResultMessage } from './tool-result-message.js';

/**
 * The results that close a run which will not be resumed (canceled or failed): each tool call
 * of the last assistant message left without a result is answered "not completed", so the
 * history stays valid for the chat format from the moment the run ends. Empty when every
 * call has its result.
 */
export function answerCutToolCalls(history: readonly AgentMessage[]): AgentMessage[] {
  return findDanglingToolCalls(history).map((call) =>
    toolResultMessage(call, NOT_COMPLETED_RESULT),
  );
}
