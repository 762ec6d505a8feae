import type { AgentHook } from '../agent/agent-hook.interface';
import type { AgentMessage, ToolCall } from '../agent/agent-message';
import type { PartialOutputPolicy } from '../agent/agent-runtime';
import type { RunControl } from '../agent/run-control';
import type { RunEventSink } from '../agent/run-events';
import type { StepCheckpointer } from '../agent/step-checkpointer.interface';
import type { ToolTraits } from './run-handle.interface';

/** Everything one run's handle is made from. */
export interface RunHandleSpec {
  threadId: string;
  runId: string;
  /** The stored history, oldest first. */
  history: readonly AgentMessage[];
  /** Calls of the interrupted or approved step, run by `prepare`. */
  pendingToolCalls?: readonly ToolCall[];
  /** Appended by `prepare` after them: the resume message, the new user messages. */
  prelude?: readonly AgentMessage[];
  /** Calls a human approved: they run without pausing again. */
  approvedToolCallIds?: ReadonlySet<string>;
  /** True when the run continues an interrupted one. */
  resumed?: boolean;
  /** The framework state an earlier run saved. */
  savedState?: unknown;
  hooks: readonly AgentHook[];
  control: RunControl;
  checkpointer: StepCheckpointer;
  emit: RunEventSink;
  /** @default 'save' */
  partialOutput?: PartialOutputPolicy;
  /** What the module knows of a tool by name. */
  toolTraits?: (name: string) => ToolTraits | undefined;
}
