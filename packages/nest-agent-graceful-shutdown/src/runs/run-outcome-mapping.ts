import { EventType, type BaseEvent } from '@ag-ui/core';
import type { RunOutcome } from '../agent/run-outcome.js';
import type { RunReplacement } from '../agent/multitask.js';
import { StopReason } from '../agent/stop-reason.js';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import { ModelCallError } from '../errors/model-call.error.js';
import { approvalInterrupts, type ApprovalInterrupt } from '../resume/approval-interrupts.js';
import type { RunStatus } from '../contracts/session-records.js';
import type { RunOutcomeLabel } from '../telemetry/agent-observer.interface.js';

/** How an outcome is recorded and told to the client. */
export interface OutcomeSummary {
  status: RunStatus;
  /** `RUN_ERROR` code; absent for a completed run. */
  errorCode?: string;
  message: string;
  /** A run paused for approval: what it waits for (the `RUN_FINISHED` interrupt outcome). */
  interrupts?: ApprovalInterrupt[];
  /** A run stopped for a new run of its thread (multitask `interrupt`): which, and how. */
  replacedBy?: RunReplacement;
}

/**
 * Maps a run's outcome to its stored status and its terminal event's code and message.
 * @param replacedBy the new run a cancel made way for: the run ends `canceled`, with
 * `RUN_REPLACED` naming it.
 */
export function summarizeOutcome(outcome: RunOutcome, replacedBy?: RunReplacement): OutcomeSummary {
  if (outcome.stopReason === StopReason.Canceled && replacedBy) {
    return {
      status: 'canceled',
      errorCode: 'RUN_REPLACED',
      message: `the run was stopped for run ${replacedBy.runId} of the same thread (multitask ${replacedBy.multitask}); messages so far are kept`,
      replacedBy,
    };
  }
  switch (outcome.stopReason) {
    case StopReason.Completed:
      return { status: 'completed', message: 'run completed' };
    case StopReason.Canceled:
      return {
        status: 'canceled',
        errorCode: 'RUN_CANCELED',
        message: 'the run was canceled by the user; messages so far are kept',
      };
    case StopReason.Interrupted:
      return {
        status: 'interrupted',
        errorCode: 'RUN_INTERRUPTED',
        message:
          'the run was interrupted by a server shutdown and saved; retry the same request to continue it',
      };
    case StopReason.AwaitingApproval:
      return {
        status: 'interrupted',
        message: 'the run is waiting for approval of a tool call',
        interrupts: approvalInterrupts(outcome.approvals ?? []),
      };
    case StopReason.StepLimit:
      return {
        status: 'failed',
        errorCode: 'STEP_LIMIT_REACHED',
        message: `the run stopped without an answer: ${outcome.detail ?? 'step limit'}`,
      };
    default:
      return {
        status: 'failed',
        // A model's failure (MODEL_RATE_LIMITED, MODEL_UNAVAILABLE, …) or a lost lease keeps its own code.
        errorCode:
          outcome.error instanceof LeaseLostError || outcome.error instanceof ModelCallError
            ? outcome.error.code
            : 'RUN_FAILED',
        message: `the run failed: ${outcome.error?.message ?? outcome.detail ?? 'unknown error'}`,
      };
  }
}

/** The one terminal AG-UI event of a run. */
export function terminalEvent(threadId: string, runId: string, summary: OutcomeSummary): BaseEvent {
  if (summary.interrupts?.length) {
    return {
      type: EventType.RUN_FINISHED,
      threadId,
      runId,
      outcome: { type: 'interrupt', interrupts: summary.interrupts },
    } as BaseEvent;
  }
  if (!summary.errorCode) return { type: EventType.RUN_FINISHED, threadId, runId } as BaseEvent;
  const replaced = summary.replacedBy ? { replacedBy: summary.replacedBy } : {};
  return {
    type: EventType.RUN_ERROR,
    message: summary.message,
    code: summary.errorCode,
    ...replaced,
  } as BaseEvent;
}

/** The terminal answer of a run whose end could not be saved. */
export function unsavedSummary(error: Error): OutcomeSummary {
  if (error instanceof LeaseLostError) {
    return {
      status: 'failed',
      errorCode: error.code,
      message: `the run stopped: ${error.message}`,
    };
  }
  return {
    status: 'failed',
    errorCode: 'RUN_NOT_SAVED',
    message: `the run's end could not be saved (${error.message}); its steps so far are kept, retry the same request to continue`,
  };
}

/** The `agent_runs_total` outcome of an attempt: a handover, or its stored ending (a run whose end was not saved failed). */
export function outcomeLabel(
  outcome: RunOutcome,
  how: { handOver: boolean; saveFailed: boolean },
): RunOutcomeLabel {
  if (how.saveFailed) return 'failed';
  if (how.handOver) return 'handed_over';
  switch (outcome.stopReason) {
    case StopReason.Completed:
      return 'completed';
    case StopReason.Canceled:
      return 'canceled';
    case StopReason.Interrupted:
      return 'interrupted';
    case StopReason.AwaitingApproval:
      return 'awaiting_approval';
    default:
      return 'failed';
  }
}
