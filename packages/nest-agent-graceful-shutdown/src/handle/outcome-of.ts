import type { StopDecision } from '../agent/agent-hook.interface.js';
import type { ToolCall } from '../agent/agent-message.js';
import type { StopRequest } from '../agent/run-control.js';
import type { PendingToolCall, RunOutcome } from '../agent/run-outcome.js';
import { StopReason, type RunPhase } from '../agent/stop-reason.js';

/** A stop decided at a safe point, with where. */
export interface DecidedStop {
  decision: StopDecision;
  phase: RunPhase;
  /** With `awaiting_approval`: the calls waiting for a human's answer. */
  approvals?: ToolCall[];
}

/** What a run's end is worked out from. */
export interface RunEndFacts {
  decided?: DecidedStop;
  request?: StopRequest;
  /** The agent loop threw (`error` is what it threw). */
  failed: boolean;
  error?: unknown;
  /** The last model answer was durable and asked for no tools. */
  answeredFinal: boolean;
  phase: RunPhase;
  iteration: number;
  pending: PendingToolCall[];
}

/**
 * How a run ended: a stop decided at a safe point first; then a requested stop (shutdown,
 * cancel, lost lease), unless the final answer was already durable and nothing failed; then a
 * failure; else completed. Whatever a framework threw while being stopped is the stop, not a failure.
 */
export function outcomeOf(facts: RunEndFacts): RunOutcome {
  const { decided, request } = facts;
  const common = { iteration: facts.iteration, pendingToolCalls: facts.pending };
  if (decided) {
    const { decision, phase, approvals } = decided;
    // A hook that relays the run's own stop request (the shutdown hook does) keeps its error.
    const relayed = request?.reason === decision.stop ? request.error : undefined;
    return {
      ...common,
      stopReason: decision.stop,
      detail: decision.detail,
      error: relayed,
      phase,
      ...(approvals ? { approvals } : {}),
    };
  }
  if (request && (facts.failed || !facts.answeredFinal)) {
    return {
      ...common,
      stopReason: request.reason,
      detail: request.detail,
      error: request.error,
      phase: facts.phase,
    };
  }
  if (facts.failed) {
    const failure = facts.error instanceof Error ? facts.error : new Error(String(facts.error));
    return { ...common, stopReason: StopReason.Failed, error: failure, phase: facts.phase };
  }
  return { ...common, stopReason: StopReason.Completed, phase: 'reasoning', pendingToolCalls: [] };
}
