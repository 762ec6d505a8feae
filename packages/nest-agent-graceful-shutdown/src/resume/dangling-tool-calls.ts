import type { AgentMessage, ToolCall } from '../agent/agent-message.js';

/** The tool calls of the last assistant message that have no result after it. */
export function findDanglingToolCalls(history: readonly AgentMessage[]): ToolCall[] {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (message.role !== 'assistant' || !message.toolCalls?.length) continue;
    const answered = new Set(
      history
        .slice(i + 1)
        .filter((m) => m.role === 'tool')
        .map((m) => m.toolCallId),
    );
    return message.toolCalls.filter((call) => !answered.has(call.id));
  }
  return [];
}
