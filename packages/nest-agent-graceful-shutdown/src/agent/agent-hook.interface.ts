import type { AgentMessage, ToolCall } from './agent-message.js';
import type { RunControl } from './run-control.js';
import type { RunOutcome } from './run-outcome.js';
import type { StopReason } from './stop-reason.js';

/** The run an event belongs to. */
export interface RunEventBase {
  threadId: string;
  runId: string;
  /** Reasoning rounds started so far (0 before the first). */
  iteration: number;
}

/** Fired once, before anything else, with the control that stops this run. */
export interface RunStartEvent extends RunEventBase {
  control: RunControl;
  messages: readonly AgentMessage[];
}

/** Fired before each model call: a safe point. */
export interface PreReasoningEvent extends RunEventBase {
  messages: readonly AgentMessage[];
  /** How long the model call is expected to take, in milliseconds, if the model says. */
  expectedDurationMs?: number;
}

/** Fired after a model response was checkpointed. */
export interface PostReasoningEvent extends RunEventBase {
  message: AgentMessage;
}

/** Fired before each tool call: a safe point. */
export interface PreActingEvent extends RunEventBase {
  toolCall: ToolCall;
  /** The calls of this step not started yet, `toolCall` first. */
  pendingToolCalls: readonly ToolCall[];
  /** How long the tool call is expected to take, in milliseconds, if the tool says. */
  expectedDurationMs?: number;
}

/** Fired after a tool result was checkpointed. */
export interface PostActingEvent extends RunEventBase {
  toolCall: ToolCall;
  result: AgentMessage;
}

/** Fired once, last, on every path: completed, stopped or failed. */
export interface RunEndEvent extends RunEventBase {
  outcome: RunOutcome;
}

/** A hook's request to stop the run at this point. */
export interface StopDecision {
  stop: StopReason;
  detail?: string;
}

/** Returned by a hook: a stop decision stops the run here; nothing (or `undefined`) goes on. */
export type HookDecision = StopDecision | undefined | void;

type Awaitable<T> = T | Promise<T>;

/**
 * Observes and steers an agent run. Hooks run in the order given; the first that returns
 * a stop decision wins and the run stops at that safe point.
 */
export interface AgentHook {
  onRunStart?(event: RunStartEvent): Awaitable<void>;
  preReasoning?(event: PreReasoningEvent): Awaitable<HookDecision>;
  postReasoning?(event: PostReasoningEvent): Awaitable<HookDecision>;
  preActing?(event: PreActingEvent): Awaitable<HookDecision>;
  postActing?(event: PostActingEvent): Awaitable<HookDecision>;
  /** Must not throw; errors are logged and ignored so every hook sees the end. */
  onRunEnd?(event: RunEndEvent): Awaitable<void>;
}
