import type { AgentModel } from './agent-model.interface.js';
import type { AgentTool } from './agent-tool.interface.js';

/** What an agent is made of. */
export interface AgentDefinition {
  model: AgentModel;
  tools: readonly AgentTool[];
  /** Sent first on every model call; not stored in the history. */
  systemPrompt?: string;
  /**
   * Reasoning rounds one run may take before it stops with `step_limit`.
   * @default 25
   */
  maxIterations?: number;
  /**
   * How many tool calls of one step may run at once when every tool of the step is `parallelSafe`.
   * @default 4
   */
  maxParallelToolCalls?: number;
}
