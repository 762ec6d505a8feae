import type { AgentMessage, ToolCall } from './agent-message.js';
import type { ToolDefinition } from './agent-tool.interface.js';

/** What one reasoning call sends to the model. */
export interface ModelRequest {
  /** The whole history, oldest first. */
  messages: readonly AgentMessage[];
  /** The tools the model may ask for. */
  tools: readonly ToolDefinition[];
}

/**
 * Receives a model's answer while it streams, so the client sees it as it arrives and an
 * interrupted call keeps what was already said. A model that does not stream never calls it.
 */
export interface ModelStreamSink {
  /** The next piece of the answer's text. */
  text(delta: string): void;
  /** A tool call begins; its arguments follow. */
  toolCallStart(call: { id: string; name: string }): void;
  /** The next piece of a started tool call's JSON arguments. */
  toolCallArgs(id: string, delta: string): void;
  /** A started tool call's arguments are complete. */
  toolCallEnd(id: string): void;
}

/** Per-call context: the run it belongs to and the signal that aborts it. */
export interface ModelCallContext {
  threadId: string;
  runId: string;
  /** Aborted when the run is stopped (user cancel, shutdown deadline): stop work and reject. */
  signal: AbortSignal;
  /** Where a streaming model reports its output as it arrives; absent: nobody listens. */
  stream?: ModelStreamSink;
}

/** Tokens one call used, as the model's API reported them. */
export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** What the model answered: text, tool calls, or both. */
export interface ModelResponse {
  content: string;
  toolCalls: ToolCall[];
  /** Token usage, when the API reports it. */
  usage?: ModelUsage;
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
  /**
   * How long one call is expected to take, in milliseconds. During a shutdown's drain, a call
   * expected to outlast the drain is not started: the run is interrupted before it instead.
   * @default the module's `defaultStepDurationMs`
   */
  readonly expectedDurationMs?: number;
  generate(request: ModelRequest, context: ModelCallContext): Promise<ModelResponse>;
}
