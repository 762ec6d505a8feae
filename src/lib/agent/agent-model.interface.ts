import type { AgentMessage, ToolCall } from './agent-message';
import type { ToolDefinition } from './agent-tool.interface';

/** What one reasoning call sends to the model. */
export interface ModelRequest {
  /** The whole history, oldest first. */
  messages: readonly AgentMessage[];
  /** The tools the model may ask for. */
  tools: readonly ToolDefinition[];
}

/** Per-call context: the run it belongs to and the signal that aborts it. */
export interface ModelCallContext {
  threadId: string;
  runId: string;
  /** Aborted when the run is stopped (user cancel, shutdown deadline): stop work and reject. */
  signal: AbortSignal;
}

/** What the model answered: text, tool calls, or both. */
export interface ModelResponse {
  content: string;
  toolCalls: ToolCall[];
}

/**
 * A chat model. Implementations must honour `context.signal`; the runtime also stops
 * waiting for a call whose signal is aborted, so a model that ignores it cannot hold a deadline.
 *
 * @example
 * const model: AgentModel = { name: 'echo', generate: async (req) => ({ content: 'hi', toolCalls: [] }) };
 */
export interface AgentModel {
  /** Shown in logs. */
  readonly name: string;
  generate(request: ModelRequest, context: ModelCallContext): Promise<ModelResponse>;
}
