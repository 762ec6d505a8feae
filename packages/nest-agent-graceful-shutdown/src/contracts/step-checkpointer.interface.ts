import type { ToolCallRecord } from './session-records.js';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { RunPhase } from '../agent/stop-reason.js';
import type { StepCommit } from './step-commit.js';

/** Where the run stood when a step finished. */
export interface StepProgress {
  iteration: number;
  phase: RunPhase;
}

/**
 * Makes a finished step durable before the run goes on. Called with only the new
 * messages, so its cost does not grow with the history.
 */
export interface StepCheckpointer {
  append(messages: readonly AgentMessage[], progress: StepProgress): Promise<void>;
  /**
   * Makes durable that a tool call is about to run, before it runs: on resume a call that
   * started without a recorded result is not silently run twice.
   */
  toolCallStarted?(call: ToolCall, progress: StepProgress): Promise<void>;
  /** The execution records of these tool calls of the thread, if any (a call replayed by a framework is then not run twice). */
  findToolCalls?(toolCallIds: readonly string[]): Promise<ToolCallRecord[]>;
  /**
   * Makes everything a step produced durable in one write (see `StepCommit`); resolves, when
   * `step.startedCalls` is not empty, only once the run surely still holds its lease. Without
   * it the handle calls `append`, `toolCallStarted` and `saveState` one after another.
   */
  commitStep?(step: StepCommit, progress: StepProgress): Promise<void>;
  /** Makes an agent framework's own state for the thread durable (fenced like a checkpoint); null clears it. */
  saveState?(state: unknown, progress: StepProgress): Promise<void>;
}
