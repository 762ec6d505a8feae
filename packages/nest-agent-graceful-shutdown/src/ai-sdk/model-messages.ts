import type { ModelMessage } from 'ai';
import type { AgentMessage } from '../agent/agent-message.js';

/** The stored conversation as AI SDK model messages (tool calls as `tool-call` parts, results as `tool-result` parts). */
export function toModelMessages(messages: readonly AgentMessage[]): ModelMessage[] {
  const toolNames = new Map<string, string>();
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: message.content };
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) return { role: 'assistant', content: message.content };
        for (const call of calls) toolNames.set(call.id, call.name);
        return {
          role: 'assistant',
          content: [
            ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
            ...calls.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.name,
              input: parseInput(call.arguments),
            })),
          ],
        };
      }
      case 'tool': {
        const toolCallId = message.toolCallId ?? '';
        const toolName = toolNames.get(toolCallId) ?? 'unknown';
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId,
              toolName,
              output: { type: 'text', value: message.content },
            },
          ],
        };
      }
    }
  });
}

function parseInput(text: string): unknown {
  try {
    return text.trim() ? JSON.parse(text) : {};
  } catch {
    return text;
  }
}
