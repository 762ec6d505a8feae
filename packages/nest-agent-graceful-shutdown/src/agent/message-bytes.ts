import type { AgentMessage } from './agent-message.js';

/**
 * The stored size of messages, in UTF-8 bytes: each message's content plus its tool calls'
 * arguments, what grows without bound (ids and names are bounded by their own rules).
 * `limits.maxThreadBytes` counts this.
 */
export function messageBytes(messages: readonly AgentMessage[]): number {
  let bytes = 0;
  for (const message of messages) {
    bytes += Buffer.byteLength(message.content, 'utf8');
    for (const call of message.toolCalls ?? []) bytes += Buffer.byteLength(call.arguments, 'utf8');
  }
  return bytes;
}
