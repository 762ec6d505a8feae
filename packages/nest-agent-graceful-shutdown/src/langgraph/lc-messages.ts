import {
  AIMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
  type MessageContent,
} from '@langchain/core/messages';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';

/** A stored message as the LangChain message a graph's `messages` channel holds, under the same id. */
export function toLangChain(message: AgentMessage): BaseMessage {
  const { id, content } = message;
  switch (message.role) {
    case 'user':
      return new HumanMessage({ id, content });
    case 'system':
      return new SystemMessage({ id, content });
    case 'tool':
      return new ToolMessage({ id, content, tool_call_id: message.toolCallId ?? '' });
    default:
      return new AIMessage({
        id,
        content,
        tool_calls: (message.toolCalls ?? []).map((call) => ({
          id: call.id,
          name: call.name,
          args: argsOf(call),
          type: 'tool_call' as const,
        })),
      });
  }
}

/** A LangChain message as the session stores it, under `id`; undefined for kinds the chat format has no place for. */
export function fromLangChain(message: BaseMessage, id: string): AgentMessage | undefined {
  const content = textOf(message.content);
  switch (message.getType()) {
    case 'human':
      return { id, role: 'user', content };
    case 'system':
      return { id, role: 'system', content };
    case 'tool':
      return { id, role: 'tool', content, toolCallId: (message as ToolMessage).tool_call_id };
    case 'ai': {
      const calls = toolCallsOf(message as AIMessage);
      return { id, role: 'assistant', content, ...(calls.length ? { toolCalls: calls } : {}) };
    }
    default:
      return undefined;
  }
}

/** The tool calls of a model answer in the module's form (arguments as JSON text). */
export function toolCallsOf(message: AIMessage): ToolCall[] {
  return (message.tool_calls ?? []).map((call) => ({
    id: call.id ?? '',
    name: call.name,
    arguments: JSON.stringify(call.args ?? {}),
  }));
}

/** The text of a message content: a string, or the text blocks of a block list. */
export function textOf(content: MessageContent): string {
  if (typeof content === 'string') return content;
  return content
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('');
}

function argsOf(call: ToolCall): Record<string, unknown> {
  if (!call.arguments.trim()) return {};
  try {
    return JSON.parse(call.arguments) as Record<string, unknown>;
  } catch {
    return {};
  }
}
