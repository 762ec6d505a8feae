import type { Runner } from '@openai/agents';
import type { VersionChangePolicy } from '../agent/agent-release.js';
import type { ToolTraits } from '../handle/run-handle.interface.js';

/** The ids of the run an agent is working for, as the default SDK run context. */
export interface DurableRunContext {
  threadId: string;
  runId: string;
}

/** Settings of `openAiAgent`. */
export interface OpenAiAgentOptions<TContext = DurableRunContext> {
  /**
   * What the module must know of each function tool, by name: `idempotent` (a call cut off by
   * a stop is run again on resume), `requiresApproval` (the module's approval pause),
   * `expectedDurationMs`. A tool with the SDK's `needsApproval` also counts as requiring approval.
   * @default {} (no tool is idempotent)
   */
  toolTraits?: Readonly<Record<string, ToolTraits>>;
  /**
   * The runner that runs the agent (its model provider, tracing and guardrail settings apply).
   * @default new Runner()
   */
  runner?: Runner;
  /**
   * The SDK run context of each run (what tools get as `runContext.context`).
   * @default ({ threadId, runId }) => ({ threadId, runId })
   */
  context?: (run: DurableRunContext) => TContext;
  /**
   * The most model calls one run makes (the SDK's `maxTurns`); a resumed run counts again from 0.
   * @default the SDK's default (10)
   */
  maxTurns?: number;
  /** How long one model call is expected to take, in milliseconds (a drain does not start a call that would outlast it). @default the module's `defaultStepDurationMs` */
  expectedReasoningMs?: number;
  /**
   * The agent's release label, recorded with every run attempt (e.g. your app's version): a
   * resume by another release follows `onVersionChange`. @default the module's `runs.agentVersion`
   */
  version?: string;
  /**
   * How a resume across a change of version or of the tools' shape goes on.
   * @default the module's `runs.onVersionChange` ('adapt')
   */
  onVersionChange?: VersionChangePolicy;
}
