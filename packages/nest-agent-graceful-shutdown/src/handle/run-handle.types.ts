import type { AgentHook } from '../agent/agent-hook.interface.js';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { AgentVersionChange } from '../agent/agent-release.js';
import type { RunControl } from '../agent/run-control.js';
import type { RunEventSink } from '../agent/run-events.js';
import type { StepCheckpointer } from '../contracts/step-checkpointer.interface.js';
import type { RunInstruments } from './run-instruments.js';
import type { ToolTraits } from './run-handle.interface.js';

/** What one run starts from. */
export interface AgentRunInput {
  threadId: string;
  runId: string;
  /** The stored history, oldest first. */
  history: readonly AgentMessage[];
  /** Tool calls of the last assistant message to run before reasoning (a resumed step). */
  pendingToolCalls?: readonly ToolCall[];
  /** Messages to append, after `pendingToolCalls`, before the first reasoning call. */
  prelude?: readonly AgentMessage[];
  /** Calls a human has approved: they run without pausing again. */
  approvedToolCallIds?: ReadonlySet<string>;
  /** The fencing token of this attempt of the run (the store's `startRun` gives it), handed to every tool call. @default 0 */
  fencingToken?: number;
}

/** The collaborators of one run. */
export interface AgentRunEnvironment {
  hooks: readonly AgentHook[];
  control: RunControl;
  checkpointer: StepCheckpointer;
  emit: RunEventSink;
  /**
   * What happens to a model answer cut off by a stop: `save` keeps the text streamed so far as
   * an assistant message flagged `truncated` (tool calls still being streamed are dropped);
   * `discard` keeps nothing of it.
   * @default 'save'
   */
  partialOutput?: PartialOutputPolicy;
}

/** See `AgentRunEnvironment.partialOutput`. */
export type PartialOutputPolicy = 'save' | 'discard';

/** Everything one run's handle is made from: the run's input and collaborators, and what the module knows besides. */
export interface RunHandleSpec extends AgentRunInput, AgentRunEnvironment {
  /** True when the run continues an interrupted one. */
  resumed?: boolean;
  /** True when the `prelude` was stored with the run's start: it is not checkpointed again. */
  preludeStored?: boolean;
  /** The framework state an earlier run saved. */
  savedState?: unknown;
  /** The version change this run crosses, when it continues an attempt of another release. @default null */
  versionChange?: AgentVersionChange | null;
  /** What the module knows of a tool by name. */
  toolTraits?: (name: string) => ToolTraits | undefined;
  /** Where steps, model answers, tool calls and checkpoints are reported (traces, metrics). @default nothing */
  instruments?: RunInstruments;
  /**
   * Told of a tool call the run stopped without waiting for, with its tool's work, when that
   * work had not settled (a tool that ignores its abort signal). @default nothing
   */
  toolLeftRunning?: (call: ToolCall, work: Promise<unknown>) => void;
}
