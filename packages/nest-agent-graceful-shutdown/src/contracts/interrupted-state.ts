import type { PendingToolCall } from '../agent/run-outcome.js';
import type { RunPhase } from '../agent/stop-reason.js';

/** Why a thread's run was interrupted rather than finished. */
export type InterruptReason = 'shutdown' | 'crash' | 'approval';

/**
 * The marker saved with a session when its run was stopped before finishing. The next run
 * request for the thread, on any instance, sees it and resumes; it is cleared when that run ends.
 */
export interface InterruptedState {
  reason: InterruptReason;
  /** ISO 8601 time of the interruption. */
  interruptedAt: string;
  /** The run that was interrupted. */
  runId: string;
  /** The phase the run was in, or about to enter. */
  phase: RunPhase;
  /** Reasoning rounds the run had started. */
  iteration: number;
  /** Tool calls of the last step left without a result. */
  pendingToolCalls: PendingToolCall[];
  /** The `version` label of the agent that ran the interrupted attempt; absent in markers of releases before 0.8. */
  agentVersion?: string;
  /** The fingerprint of that agent (tools and their schemas, a graph's nodes and channels); absent before 0.8. */
  agentFingerprint?: string;
  /** The interrupted attempt's trace, when it was sampled: the attempt that continues links to it. */
  traceContext?: SavedTraceContext;
}

/** Where a run's trace is kept across an interruption, so the resumed attempt links to it. */
export interface SavedTraceContext {
  /** 32 hex digits. */
  traceId: string;
  /** 16 hex digits: the interrupted attempt's run span. */
  spanId: string;
}
