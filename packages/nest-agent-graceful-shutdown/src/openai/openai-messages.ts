import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { AgentMessage } from '../agent/agent-message.js';
import type { ToolDefinition } from '../agent/agent-tool.interface.js';

/** Converts the agent's history to OpenAI chat messages, oldest first. */
export function toChatMessages(messages: readonly AgentMessage[]): ChatCompletionMessageParam[] {
  return messages.map(toChatMessage);
}

/** Converts one agent message to its OpenAI chat form. */
export function toChatMessage(message: AgentMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      // The API pairs a result with its call by id; a result without one is rejected with a 400.
      return { role: 'tool', tool_call_id: message.toolCallId ?? '', content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        // A message that only calls tools has no text; the API expects null rather than ''.
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
  }
}

/** Converts tool definitions to OpenAI function tools. */
export function toChatTools(tools: readonly ToolDefinition[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
