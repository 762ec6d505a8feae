import type { AgentModel } from './agent-model.interface.js';
import type { VersionChangePolicy } from './agent-release.js';
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
  /**
   * The agent's release label, recorded with every run attempt (e.g. the app's `package.json`
   * version). @default the module's `runs.agentVersion`
   */
  version?: string;
  /**
   * How a resume of a run that an earlier (or later) release started goes on.
   * @default the module's `runs.onVersionChange` ('adapt')
   */
  onVersionChange?: VersionChangePolicy;
}
