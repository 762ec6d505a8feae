import type { BaseEvent } from '@ag-ui/core';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { ModelStreamSink, ModelUsage } from '../agent/agent-model.interface.js';
import type {
  AgentShape,
  AgentVersionChange,
  ToolInputCheck,
  VersionChangePolicy,
} from '../agent/agent-release.js';
import type { StopRequest } from '../agent/run-control.js';
import type { RunOutcome } from '../agent/run-outcome.js';
import type { RunPhase, StopReason } from '../agent/stop-reason.js';

/** The answer of a safe point: go on, or stop here with a reason. */
export type SafePoint = { stop: false } | { stop: true; reason: StopReason; detail?: string };

/** What the module must know of a tool, whatever framework defines it. */
export interface ToolTraits {
  /** Running the same call twice is harmless: a call cut off by a stop is run again on resume. @default false */
  idempotent?: boolean;
  /** A human approves each call before it runs: the run pauses before acting. @default false */
  requiresApproval?: boolean;
  /** How long one call is expected to take, in milliseconds (a drain does not start a call that would outlast it). @default the module's `defaultStepDurationMs` */
  expectedDurationMs?: number;
}

/** How `RunHandle.runTool` answered a call. */
export interface ToolCallResult {
  /** The result text the model sees. */
  content: string;
  /**
   * `executed`: the tool ran now and its result is durable. `recorded`: a finished execution was
   * found and its stored result is returned; the tool did not run again. `outcome_unknown`: the
   * call may have run before a stop and its tool is not idempotent, so it is not run twice.
   */
  source: 'executed' | 'recorded' | 'outcome_unknown';
  /** The id of the stored tool message. */
  messageId: string;
}

/**
 * One model answer as it streams, under the id it will be stored with: its deltas become AG-UI
 * events at once, and the text said so far is kept so an answer cut off by a stop can be saved
 * (the module's `partialOutput` policy).
 */
export interface AnswerStream extends ModelStreamSink {
  readonly messageId: string;
  /** The text streamed so far. */
  readonly streamedText: string;
  /**
   * The answer is whole: checkpoints it (O(1)), emits what the stream did not, closes the
   * reasoning step and fires the post-reasoning hooks. Its tool calls become the step's pending calls.
   * An answer with tool calls is made durable in the run's next write, together with the started
   * record of its first call to pass the pre-acting safe point (so before any of them runs), or on
   * its own when the run stops or reasons again first; its end is emitted once it is durable.
   */
  complete(answer: { content: string; toolCalls?: readonly ToolCall[] }): Promise<AgentMessage>;
  /** The call was cut off: closes what is open; the streamed text is saved flagged `truncated` when the policy says so. */
  cutOff(): Promise<void>;
}

/**
 * One run, as any agent loop drives it. The module owns everything around it (registration,
 * drain, interrupt, `InterruptedState`, leases, cancel, the AG-UI stream); an agent loop (the
 * native ReAct runtime or a framework adapter) asks it at each safe point, checkpoints what is
 * new, and runs each tool call through it.
 *
 * @example
 * for (;;) {
 *   const point = await handle.beforeReasoning();
 *   if (point.stop) throw handle.stopped(point);
 *   const answer = handle.startAnswer();
 *   const message = await answer.complete(await callModel(handle.messages, answer, handle.signal));
 *   if (!message.toolCalls?.length) return;
 *   await Promise.all(message.toolCalls.map((call) => handle.runTool(call, (signal) => tools.run(call, signal))));
 * }
 */
export interface RunHandle {
  readonly threadId: string;
  readonly runId: string;
  /**
   * The fencing token of this attempt of the run: it grows every time the run's lease changes
   * hands. Give it, with the call's idempotency key (`toolFenceOf(threadId, call.id, fencingToken)`),
   * to every tool call, so the tool's own system can refuse a stale effect.
   */
  readonly fencingToken: number;
  /** Aborted when the run must stop now (user cancel, end of the drain, lost lease): pass it to model and tool calls. */
  readonly signal: AbortSignal;
  /** The stop asked for so far, if any. */
  readonly stopRequest: StopRequest | undefined;
  /**
   * The conversation so far, oldest first, as the model must see it: the stored history (every
   * tool call answered except `pendingToolCalls`); after `prepare`, also their results, the resume
   * message and the new user messages; then every message this run checkpointed.
   */
  readonly messages: readonly AgentMessage[];
  /** The result of a tool call among `messages`, if it has one (found by id, not by scanning the conversation). */
  toolResult(toolCallId: string): AgentMessage | undefined;
  /** Calls of the interrupted or approved step that `prepare` runs before the first reasoning call. */
  readonly pendingToolCalls: readonly ToolCall[];
  /** What `prepare` appends after the pending calls' results: the resume message (when resumed), then the new user messages. */
  readonly prelude: readonly AgentMessage[];
  /** True when this run continues an interrupted one (a resume message is in `messages`). */
  readonly resumed: boolean;
  /**
   * Set when this run continues an attempt that another release of the agent wrote (its version
   * or fingerprint differs): a graph adapter checks that `savedState` still fits its graph.
   */
  readonly versionChange: AgentVersionChange | null;
  /** The framework state saved with `saveState` by an earlier run of this thread, if any. */
  readonly savedState: unknown;
  /** Reasoning rounds started so far. */
  readonly iteration: number;
  readonly phase: RunPhase;

  /**
   * Begins the conversation; call it once, first. Runs the `pendingToolCalls` through `runTool`
   * with `execute`, then checkpoints the `prelude`. Resolves with `messages`.
   */
  prepare(
    execute: (call: ToolCall, signal: AbortSignal) => Promise<string>,
  ): Promise<readonly AgentMessage[]>;
  /** The safe point before a model call. Going on starts a reasoning step (`STEP_STARTED reasoning`). */
  beforeReasoning(info?: { expectedDurationMs?: number }): Promise<SafePoint>;
  /**
   * The safe point before a tool call. Stops with `awaiting_approval` before a call that needs
   * a human's approval and has none. Going on opens the acting step.
   */
  beforeActing(call: ToolCall, info?: { expectedDurationMs?: number }): Promise<SafePoint>;
  /** A stop decided at a safe point, as an error to leave the agent loop with; `finish` recognises it. */
  stopped(point: Extract<SafePoint, { stop: true }>): Error;
  /** Starts streaming one model answer. */
  startAnswer(): AnswerStream;
  /**
   * Makes new messages durable before the run goes on; costs O(messages given). Tool messages
   * also mark their tool-call records finished, in the same transaction.
   */
  checkpoint(messages: readonly AgentMessage[]): Promise<void>;
  /**
   * Makes a step's new messages and the framework's state (see `saveState`) durable together,
   * in one write: what a framework that checkpoints both at once (a LangGraph checkpoint) calls.
   * `state` undefined keeps the saved state as it is.
   */
  commitStep(step: { messages?: readonly AgentMessage[]; state?: unknown }): Promise<void>;
  /** The tool-call record: `started` is made durable before the tool runs (with its answer, when that is not durable yet). */
  toolStarted(call: ToolCall): Promise<void>;
  /** The tool-call record: finished with its result (stored as the call's tool message). */
  toolFinished(call: ToolCall, content: string): Promise<AgentMessage>;
  /** The tool-call record: answered as "interrupted, outcome unknown" without running it. */
  toolOutcomeUnknown(call: ToolCall): Promise<AgentMessage>;
  /**
   * Runs one tool call through its record, safe to call for several calls of one step at once:
   * a call with a finished record returns its stored result without running; a call that may
   * have started and whose tool is not idempotent is answered as of unknown outcome; any other
   * passes the pre-acting safe point (throwing `stopped(...)` on a stop), is recorded as
   * started, runs with the run's signal, and is checkpointed with its result.
   */
  runTool(
    call: ToolCall,
    execute: (signal: AbortSignal) => Promise<string>,
  ): Promise<ToolCallResult>;
  /** Makes a framework's own state (JSON-serialisable, small: not its messages) durable on the thread, fenced like a checkpoint; the next run of the thread gets it back as `savedState`. `null` clears it. */
  saveState(state: unknown): Promise<void>;
  /** Adds one model call's token usage to the run's total. */
  reportUsage(usage: ModelUsage): void;
  /** Sends an AG-UI event to the run's stream. */
  emit(event: BaseEvent): void;
  /**
   * Ends the run: the outcome is a stop decided at a safe point or requested (shutdown, cancel,
   * lost lease), else a failure when `error` is given, else completed. Fires the run-end hooks,
   * which make the end durable. Idempotent: later calls return the first outcome.
   */
  finish(error?: unknown): Promise<RunOutcome>;
}

/**
 * An agent whatever framework it is written with, as the module runs it. The native
 * `AgentDefinition` and every framework adapter turn into one.
 */
export interface DurableAgent {
  /** Drives one run to its end through the handle; resolves when the loop ended, rejects with why it failed or stopped. */
  run(handle: RunHandle): Promise<void>;
  /** What the module must know of a tool by name; undefined for an unknown tool. */
  toolTraits(name: string): ToolTraits | undefined;
  /**
   * The agent's release label, recorded with every run attempt and in the interrupt marker.
   * @default the module's `runs.agentVersion`
   */
  readonly version?: string;
  /**
   * How a resume across a change of version or fingerprint goes on.
   * @default the module's `runs.onVersionChange` ('adapt')
   */
  readonly onVersionChange?: VersionChangePolicy;
  /**
   * What a resume depends on (tools and their input schemas; a graph's nodes and channels): the
   * module fingerprints it. @default the fingerprint of no tools
   */
  describe?(): AgentShape;
  /**
   * Checks a call's arguments with the framework's own input check for the tool (never around
   * it): a resume does not run a call its current tool refuses. @default every input passes
   */
  checkToolInput?(call: ToolCall): Promise<ToolInputCheck>;
}
