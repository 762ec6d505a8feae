import type { ToolFence } from './tool-fence.js';

/** What the model is told about a tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/**
 * Per-call context of a tool execution. Its `idempotencyKey` and `fencingToken` (see
 * `ToolFence`) let the tool's own system refuse a duplicate or a stale effect.
 */
export interface ToolCallContext extends ToolFence {
  threadId: string;
  runId: string;
  toolCallId: string;
  /** Aborted when the run is stopped: stop work and reject. */
  signal: AbortSignal;
}

/**
 * A tool the agent can act with.
 *
 * @example
 * const clock: AgentTool = {
 *   definition: { name: 'now', description: 'current time', parameters: { type: 'object' } },
 *   execute: async () => new Date().toISOString(),
 * };
 */
export interface AgentTool {
  readonly definition: ToolDefinition;
  /**
   * True when running the same call twice is harmless. A call of such a tool that was cut
   * off by an interruption is run again on resume; otherwise it is reported as of unknown outcome.
   * @default false
   */
  readonly idempotent?: boolean;
  /**
   * How long one call is expected to take, in milliseconds. During a shutdown's drain, a call
   * expected to outlast the drain is not started: the run is interrupted before it instead.
   * @default the module's `defaultStepDurationMs`
   */
  readonly expectedDurationMs?: number;
  /**
   * True when a human must approve each call before it runs: the run pauses before acting,
   * with the thread `awaiting_approval`, until a run request answers.
   * @default false
   */
  readonly requiresApproval?: boolean;
  /**
   * True when calls of this tool may run at the same time as other calls of the same step. The
   * calls of a step run concurrently (up to the agent's `maxParallelToolCalls`) only when every
   * tool of the step says so; otherwise one after another.
   * @default false
   */
  readonly parallelSafe?: boolean;
  /** Runs the tool; the returned text becomes the tool message's content. */
  execute(args: unknown, context: ToolCallContext): Promise<string>;
}
