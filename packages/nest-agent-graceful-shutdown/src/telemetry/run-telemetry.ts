import type { NotRunReason } from '../agent/agent-release.js';
import type { ToolCall } from '../agent/agent-message.js';
import type { ModelUsage } from '../agent/agent-model.interface.js';
import type { DiscardedTokens } from '../agent/discarded-tokens.js';
import type { RunOutcome } from '../agent/run-outcome.js';
import type { RunPhase } from '../agent/stop-reason.js';
import type { ResumeMode } from '../options/resume-mode.js';
import type { AgentTelemetry } from './agent-telemetry.js';
import type { ObservedRun, RunOutcomeLabel } from './agent-observer.interface.js';
import type { RunInstruments } from '../handle/run-instruments.js';
import { RunSpans } from './run-spans.js';
import { TraceAttr, type SavedTraceContext } from './trace-attributes.js';

/** The run attempt being measured. */
export interface RunTelemetryInfo extends ObservedRun {
  instanceId: string;
  /** Set when the attempt resumes an interrupted run: who resumed it. */
  resumedBy?: ResumeMode;
  /** The interrupted attempt's trace, to link to. */
  resumes?: SavedTraceContext;
}

/**
 * One run attempt's traces and metrics: its spans (`RunSpans`), and what the module's
 * observers count (the end, a resume, checkpoints, a cancel's delivery).
 */
export class RunTelemetry implements RunInstruments {
  private readonly spans = new RunSpans();

  constructor(
    private readonly telemetry: AgentTelemetry,
    private readonly info: RunTelemetryInfo,
  ) {}

  /** Opens the run span; a resumed attempt is counted and linked to the attempt it resumes. */
  start(): void {
    const { threadId, runId, agentName, instanceId, resumedBy, resumes } = this.info;
    this.spans.start({
      agentName,
      resumes,
      attributes: {
        [TraceAttr.operation]: 'invoke_agent',
        [TraceAttr.agentName]: agentName,
        [TraceAttr.conversationId]: threadId,
        [TraceAttr.threadId]: threadId,
        [TraceAttr.runId]: runId,
        [TraceAttr.instanceId]: instanceId,
        [TraceAttr.resumed]: resumedBy !== undefined,
        ...(resumedBy ? { [TraceAttr.resumeMode]: resumedBy } : {}),
      },
    });
    if (resumedBy) this.telemetry.notify('runResumed', this.observed(), resumedBy);
  }

  /** Runs the attempt with its run span active. */
  within<T>(work: () => T): T {
    return this.spans.within(work);
  }

  /** The run span's ids, saved with an interruption so the attempt that resumes links to it. */
  traceContext(): SavedTraceContext | undefined {
    return this.spans.saved();
  }

  /** The attempt ended: counted by outcome, its span closed (with an error status for a failure). */
  ended(outcome: RunOutcome, label: RunOutcomeLabel, error?: Error): void {
    this.spans.stopOpenSpans(outcome.stopReason);
    this.spans.end(
      {
        [TraceAttr.outcome]: label,
        [TraceAttr.stopReason]: outcome.stopReason,
        [TraceAttr.phase]: outcome.phase,
        [TraceAttr.iteration]: outcome.iteration,
      },
      label === 'failed'
        ? (error ?? outcome.error ?? new Error(outcome.detail ?? 'run failed'))
        : undefined,
    );
    this.telemetry.notify('runEnded', this.observed(), label);
  }

  /** A user's cancel, accepted at `acceptedAt` (epoch milliseconds), stopped the run now. */
  cancelDelivered(acceptedAt: number): void {
    this.telemetry.notify(
      'cancelDelivered',
      this.observed(),
      Math.max(0, Date.now() - acceptedAt) / 1_000,
    );
  }

  /** The attempt resumes a run that another release of its agent wrote. */
  resumedAcrossVersions(from: string, to: string): void {
    this.telemetry.notify('resumedAcrossVersions', this.observed(), from, to);
  }

  /** A pending call was answered "not run" at this attempt's start. */
  toolCallNotRun(toolName: string, reason: NotRunReason): void {
    this.telemetry.notify('toolCallNotRun', this.observed(), toolName, reason);
  }

  /** The attempt lost its lease on the thread (another attempt holds it now). */
  leaseLost(): void {
    this.telemetry.notify('leaseLost', this.info.threadId);
  }

  stepStarted(phase: RunPhase, iteration: number): void {
    this.spans.stepStarted(phase, iteration);
  }

  stepEnded(phase: RunPhase): void {
    this.spans.stepEnded(phase);
  }

  modelUsage(usage: ModelUsage): void {
    this.spans.modelUsage(usage);
  }

  modelAnswered(toolCalls: number): void {
    this.spans.modelAnswered(toolCalls);
  }

  modelTokensDiscarded(tokens: DiscardedTokens): void {
    this.telemetry.notify('modelTokensDiscarded', this.observed(), tokens);
  }

  tool<T>(call: ToolCall, work: () => Promise<T>): Promise<T> {
    return this.spans.tool(call, work);
  }

  checkpointWritten(seconds: number): void {
    this.telemetry.notify('checkpointWritten', seconds);
  }

  stopped(stopReason: string): void {
    this.spans.stopOpenSpans(stopReason);
  }

  private observed(): ObservedRun {
    const { threadId, runId, agentName } = this.info;
    return { threadId, runId, agentName };
  }
}
