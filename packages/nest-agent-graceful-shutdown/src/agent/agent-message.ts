/** Who wrote a message, in the OpenAI chat sense. */
export type MessageRole = 'user' | 'assistant' | 'tool' | 'system';

/** One call of a tool that the model asked for. */
export interface ToolCall {
  /** Unique id, echoed by the tool result's `toolCallId`. */
  id: string;
  /** Name of the tool to run. */
  name: string;
  /** Arguments as a JSON text, exactly as the model produced them. */
  arguments: string;
}

/** One message of a thread's history, as the model sees it and as it is stored. */
export interface AgentMessage {
  /** Stable id: the same id the client saw in the stream, so echoes are recognised. */
  id: string;
  role: MessageRole;
  /** Text content; empty for an assistant message that only calls tools. */
  content: string;
  /** Tool calls of an assistant message. */
  toolCalls?: ToolCall[];
  /** For a `tool` message: the call it answers. */
  toolCallId?: string;
  /** For an assistant message: cut off by a stop while it streamed; `content` is what was said. */
  truncated?: boolean;
}
