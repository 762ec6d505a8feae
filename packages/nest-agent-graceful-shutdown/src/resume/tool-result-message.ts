import { randomUUID } from 'node:crypto';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';

/** A tool message answering `call` with `content`, under a new message id. */
export function toolResultMessage(call: ToolCall, content: string): AgentMessage {
  return { id: randomUUID(), role: 'tool', toolCallId: call.id, content };
}
