import type { BaseEvent } from '@ag-ui/core';
import type { AgentHook } from '../agent/agent-hook.interface.js';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import { RunControl } from '../agent/run-control.js';
import type { RunOutcome } from '../agent/run-outcome.js';
import { driveRun } from '../handle/drive-run.js';
import { DurableRunHandle } from '../handle/durable-run-handle.js';
import type { DurableAgent, ToolTraits } from '../handle/run-handle.interface.js';
import { MemoryCheckpointer } from './memory-checkpointer.js';

/** What a run on a memory store starts from: what earlier runs of its thread left. */
export interface MemoryRunOptions {
  /** The stored history, oldest first. */
  history: readonly AgentMessage[];
  /** Calls of the interrupted or approved step. */
  pending?: readonly ToolCall[];
  /** Ids of the calls a human approved. */
  approved?: readonly string[];
  /** The resume message and new user messages. */
  prelude?: readonly AgentMessage[];
  /** The run continues an interrupted one. @default false */
  resumed?: boolean;
  /** The framework state an earlier run saved. */
  savedState?: unknown;
  hooks?: readonly AgentHook[];
  /** The fencing token of the attempt. @default 0 */
  fencingToken?: number;
  /** @default the agent's own `toolTraits` */
  toolTraits?: (name: string) => ToolTraits | undefined;
}

/** A run started on a memory store, and what to watch it by. */
export interface MemoryRun {
  outcome: Promise<RunOutcome>;
  checkpointer: MemoryCheckpointer;
  /** Stop the run as a shutdown or a cancel would. */
  control: RunControl;
  /** The AG-UI events it emitted. */
  events: BaseEvent[];
}

/** Drives `agent` through a run handle on thread `t`, run `r`, with everything kept in memory. */
export function startMemoryRun(agent: DurableAgent, options: MemoryRunOptions): MemoryRun {
  const checkpointer = new MemoryCheckpointer();
  const control = new RunControl();
  const events: BaseEvent[] = [];
  const handle = new DurableRunHandle({
    threadId: 't',
    runId: 'r',
    fencingToken: options.fencingToken,
    history: options.history,
    pendingToolCalls: options.pending,
    approvedToolCallIds: new Set(options.approved ?? []),
    prelude: options.prelude,
    resumed: options.resumed ?? false,
    savedState: options.savedState,
    hooks: options.hooks ?? [],
    control,
    checkpointer,
    emit: (event) => void events.push(event),
    toolTraits: options.toolTraits ?? ((name) => agent.toolTraits(name)),
  });
  return { outcome: driveRun(agent, handle), checkpointer, control, events };
}
