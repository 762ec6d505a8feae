import type { AgentRunEnvironment, AgentRunInput } from '../agent/agent-runtime';
import type { RunInstruments } from '../telemetry/run-instruments';
import type { ToolTraits } from './run-handle.interface';

/** Everything one run's handle is made from: the run's input and collaborators, and what the module knows besides. */
export interface RunHandleSpec extends AgentRunInput, AgentRunEnvironment {
  /** True when the run continues an interrupted one. */
  resumed?: boolean;
  /** True when the `prelude` was stored with the run's start: it is not checkpointed again. */
  preludeStored?: boolean;
  /** The framework state an earlier run saved. */
  savedState?: unknown;
  /** What the module knows of a tool by name. */
  toolTraits?: (name: string) => ToolTraits | undefined;
  /** Where steps, model answers, tool calls and checkpoints are reported (traces, metrics). @default nothing */
  instruments?: RunInstruments;
}
