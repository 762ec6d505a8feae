import type { ToolCall } from './agent-message.js';
import type { ModelUsage } from './agent-model.interface.js';
import type { RunPhase, StopReason } from './stop-reason.js';

/** A tool call of the interrupted step that has no result yet. */
export interface PendingToolCall extends ToolCall {
  /** True when the call was running when the run stopped: its outcome is unknown. */
  started: boolean;
}

/** How a run ended, as after-run hooks and the run record see it. */
export interface RunOutcome {
  stopReason: StopReason;
  /** The phase the run was in, or about to enter, when it stopped. */
  phase: RunPhase;
  iteration: number;
  /** Calls of the last assistant message left without a result. */
  pendingToolCalls: PendingToolCall[];
  /** Set when `stopReason` is `failed`. */
  error?: Error;
  /** Free text from whoever stopped the run. */
  detail?: string;
  /** Tokens the run's model calls used, summed, when the model reports usage. */
  usage?: ModelUsage;
  /** With `awaiting_approval`: the calls waiting for a human's answer. */
  approvals?: ToolCall[];
}
