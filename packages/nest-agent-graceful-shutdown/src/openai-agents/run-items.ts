import type { AgentInputItem, AgentOutputItem } from '@openai/agents';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';

/** One model answer in the module's terms. */
export interface AnswerParts {
  content: string;
  toolCalls: ToolCall[];
}

/**
 * The stored conversation as the SDK's input items: user, system and assistant messages,
 * `function_call` and `function_call_result` items (the chat-completions shape once converted).
 */
export function toInputItems(messages: readonly AgentMessage[]): AgentInputItem[] {
  const names = new Map<string, string>();
  const items: AgentInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        items.push({ role: 'user', content: message.content });
        break;
      case 'system':
        items.push({ role: 'system', content: message.content });
        break;
      case 'assistant':
        if (message.content)
          items.push({
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: message.content }],
          });
        for (const call of message.toolCalls ?? []) {
          names.set(call.id, call.name);
          items.push({
            type: 'function_call',
            callId: call.id,
            name: call.name,
            arguments: call.arguments,
            status: 'completed',
          });
        }
        break;
      case 'tool': {
        const callId = message.toolCallId ?? '';
        items.push({
          type: 'function_call_result',
          callId,
          name: names.get(callId) ?? '',
          status: 'completed',
          output: { type: 'text', text: message.content },
        });
        break;
      }
    }
  }
  return items;
}

/** The text and function calls of one model response (reasoning and hosted-tool items have no place in the stored history). */
export function answerOf(output: readonly AgentOutputItem[]): AnswerParts {
  let content = '';
  const toolCalls: ToolCall[] = [];
  for (const item of output) {
    if (item.type === 'message' && item.role === 'assistant') {
      for (const part of item.content) if (part.type === 'output_text') content += part.text;
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: item.callId, name: item.name, arguments: item.arguments });
    }
  }
  return { content, toolCalls };
}

/**
 * What a conversation says, in a form both sides produce alike: one token per message and per
 * tool call or result (`user`, `system`, `assistant`, `call:<id>`, `result:<id>`). Two histories
 * with the same outline hold the same turns.
 */
export function outlineOfMessages(messages: readonly AgentMessage[]): string[] {
  const outline: string[] = [];
  for (const message of messages) {
    if (message.role === 'tool') outline.push(`result:${message.toolCallId ?? ''}`);
    else if (message.role !== 'assistant' || message.content) outline.push(message.role);
    for (const call of message.toolCalls ?? []) outline.push(`call:${call.id}`);
  }
  return outline;
}

/** See `outlineOfMessages`; items the stored history does not keep (reasoning, hosted tools) are left out. */
export function outlineOfItems(items: readonly AgentInputItem[]): string[] {
  const outline: string[] = [];
  for (const item of items) {
    if (item.type === 'function_call') outline.push(`call:${item.callId}`);
    else if (item.type === 'function_call_result') outline.push(`result:${item.callId}`);
    else if ((item.type === undefined || item.type === 'message') && 'role' in item) {
      if (item.role !== 'assistant' || hasText(item.content)) outline.push(item.role);
    }
  }
  return outline;
}

function hasText(content: unknown): boolean {
  if (typeof content === 'string') return content.length > 0;
  return (
    Array.isArray(content) &&
    content.some(
      (part: { type?: string; text?: string }) => part.type === 'output_text' && !!part.text,
    )
  );
}
