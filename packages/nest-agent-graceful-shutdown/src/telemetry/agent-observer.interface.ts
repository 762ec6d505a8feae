import type { NotRunReason } from '../agent/agent-release.js';
import type { DiscardedTokens } from '../agent/discarded-tokens.js';
import type { ResumeMode } from '../options/resume-mode.js';

/** How a run attempt ended on this instance, as counted by `agent_runs_total{outcome}`. */
export type RunOutcomeLabel =
  'completed' | 'canceled' | 'interrupted' | 'handed_over' | 'awaiting_approval' | 'failed';

/**
 * A measured part of a shutdown: `drain` (from its start until in-flight runs finished or
 * the drain deadline passed), `interrupt` (stopping and saving the runs left), `close`
 * (closing the HTTP server and the runs admitted last).
 */
export type ShutdownPhaseLabel = 'drain' | 'interrupt' | 'close';

/** The run an observation is about. */
export interface ObservedRun {
  threadId: string;
  runId: string;
  /** The name the run's agent is registered under. */
  agentName: string;
}

/**
 * Receives what the module measures, as it happens: the seam that metrics (the `/metrics`
 * entry's `AgentMetrics`) and any other exporter plug into through
 * `AgentTelemetry.observe`. Every method is optional and must not throw; durations are in
 * seconds.
 */
export interface AgentObserver {
  /** A run attempt on this instance ended. */
  runEnded?(run: ObservedRun, outcome: RunOutcomeLabel): void;
  /** An interrupted run was resumed: by its client's retry, or by an instance on its own. */
  runResumed?(run: ObservedRun, mode: ResumeMode): void;
  /** A phase of this instance's shutdown ended after `seconds`. */
  shutdownPhaseEnded?(phase: ShutdownPhaseLabel, seconds: number): void;
  /** One step checkpoint (messages or a tool call's record) was written in `seconds`. */
  checkpointWritten?(seconds: number): void;
  /** A user's cancel stopped its run `seconds` after it was accepted. */
  cancelDelivered?(run: ObservedRun, seconds: number): void;
  /** A run lost its lease on its thread (another instance holds it now) and was stopped. */
  leaseLost?(threadId: string): void;
  /**
   * A tool call was still running when the process exited (its tool ignored its abort
   * signal): abandoned, its outcome recorded as unknown.
   */
  toolCallAbandoned?(threadId: string, runId: string, toolName: string): void;
  /** A client joined a run's event stream. */
  streamJoined?(threadId: string, runId: string): void;
  /** A run resumed on an agent whose version or fingerprint differs from the interrupted attempt's. */
  resumedAcrossVersions?(run: ObservedRun, from: string, to: string): void;
  /** A pending call was answered "not run" at a resume (its tool gone, its arguments refused, or the policy). */
  toolCallNotRun?(run: ObservedRun, toolName: string, reason: NotRunReason): void;
  /** A stop (a shutdown's, a cancel, a replacement) cut a model call off: the tokens it cost for nothing. */
  modelTokensDiscarded?(run: ObservedRun, tokens: DiscardedTokens): void;
}
