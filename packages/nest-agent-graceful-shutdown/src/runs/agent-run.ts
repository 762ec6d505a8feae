import { Logger } from '@nestjs/common';
import { EventType, type BaseEvent } from '@ag-ui/core';
import type { AgentHook } from '../agent/agent-hook.interface';
import type { AgentMessage, ToolCall } from '../agent/agent-message';
import type { PartialOutputPolicy } from '../agent/agent-runtime';
import { RunControl } from '../agent/run-control';
import type { RunEventSink } from '../agent/run-events';
import type { RunOutcome } from '../agent/run-outcome';
import { LeaseLostError } from '../errors/lease-lost.error';
import type { LeaseKeeper } from '../leases/lease-keeper.service';
import type { SessionStore } from '../session/session-store.interface';
import { StoreCheckpointer } from '../session/store-checkpointer';
import type { SignalBus } from '../signals/signal-bus.interface';
import { GracefulShutdownHook, type GracefulShutdownHookDeps } from '../shutdown/graceful-shutdown.hook';
import type { InterruptedState } from '../shutdown/interrupted-state';
import { summarizeOutcome, terminalEvent, type OutcomeSummary } from './run-outcome-mapping';
import { SseEventStream } from '../http/sse-event-stream';
import { driveRun } from '../handle/drive-run';
import { DurableRunHandle } from '../handle/durable-run-handle';
import type { DurableAgent } from '../handle/run-handle.interface';
import { toServerResponse, type HttpResponseTarget } from '../http/server-response';

/** Everything an admitted run needs to execute. */
export interface AgentRunSpec {
  threadId: string;
  runId: string;
  runKey: string;
  agent: DurableAgent;
  history: readonly AgentMessage[];
  toRun: readonly ToolCall[];
  /** Calls a human approved: they run without pausing again. */
  approvedToolCallIds: ReadonlySet<string>;
  prelude: readonly AgentMessage[];
  /** True when the run continues an interrupted one. */
  resumed: boolean;
  /** The agent framework's state an earlier run of the thread saved. */
  savedState: unknown;
  hooks: readonly AgentHook[];
  store: SessionStore;
  signals: SignalBus;
  shutdown: Omit<GracefulShutdownHookDeps, 'finalizer' | 'signals' | 'lease'>;
  leases: LeaseKeeper;
  partialOutput: PartialOutputPolicy;
  defaultStepDurationMs: number;
  /** Idle time of an event stream before a heartbeat comment, in milliseconds; 0: none. */
  sseHeartbeatMs: number;
}

/**
 * A run that was admitted and recorded. `execute` streams its AG-UI events, from
 * `RUN_STARTED` to exactly one terminal event, and resolves with how it ended.
 */
export class AgentRun {
  private readonly logger = new Logger('AgentRun');
  /** Set when the run's end could not be saved: the client is told instead of a normal ending. */
  private saveFailure?: Error;

  constructor(private readonly spec: AgentRunSpec) {}

  get threadId(): string {
    return this.spec.threadId;
  }

  get runId(): string {
    return this.spec.runId;
  }

  /**
   * Executes the run with its events streamed to `response` as server-sent events: an
   * Express `Response`, a Fastify `FastifyReply` (hijacked) or a Node `ServerResponse`.
   */
  async streamTo(response: HttpResponseTarget): Promise<RunOutcome> {
    const stream = new SseEventStream(toServerResponse(response), this.spec.sseHeartbeatMs);
    stream.open();
    try {
      return await this.execute(stream.write);
    } finally {
      stream.close();
    }
  }

  async execute(emit: RunEventSink): Promise<RunOutcome> {
    const { threadId, runId, runKey, store, signals } = this.spec;
    const shutdownHook = new GracefulShutdownHook({
      ...this.spec.shutdown,
      signals,
      finalizer: { finalize: (outcome, interrupt) => this.finalize(outcome, interrupt) },
      lease: { keeper: this.spec.leases, runKey },
      defaultStepDurationMs: this.spec.defaultStepDurationMs,
    });
    emit({ type: EventType.RUN_STARTED, threadId, runId } as BaseEvent);
    this.logger.log({ msg: 'run started', threadId, runId, resumedCalls: this.spec.toRun.length });
    const handle = new DurableRunHandle({
      threadId,
      runId,
      history: this.spec.history,
      pendingToolCalls: this.spec.toRun,
      prelude: this.spec.prelude,
      approvedToolCallIds: this.spec.approvedToolCallIds,
      resumed: this.spec.resumed,
      savedState: this.spec.savedState,
      hooks: [...this.spec.hooks, shutdownHook],
      control: new RunControl(),
      checkpointer: new StoreCheckpointer(store, { threadId, runId, runKey }),
      emit,
      partialOutput: this.spec.partialOutput,
      toolTraits: (name) => this.spec.agent.toolTraits(name),
    });
    const outcome = await driveRun(this.spec.agent, handle);
    emit(terminalEvent(threadId, runId, this.saveFailure ? unsavedSummary(this.saveFailure) : summarizeOutcome(outcome)));
    return outcome;
  }

  private async finalize(outcome: RunOutcome, interrupt: InterruptedState | null): Promise<void> {
    const { threadId, runId, runKey, store, signals } = this.spec;
    const summary = summarizeOutcome(outcome);
    try {
      await store.finishRun({
        threadId,
        runKey,
        status: summary.status,
        stopReason: outcome.stopReason,
        iteration: outcome.iteration,
        phase: outcome.phase,
        errorCode: summary.errorCode,
        errorMessage: summary.errorCode ? summary.message : undefined,
        usage: outcome.usage,
        interrupt,
      });
    } catch (error) {
      // Lease lost: the thread is a newer run's now. Store unreachable: the lease runs out
      // and the thread reads interrupted (crash), resumable from its last checkpoint.
      this.saveFailure = error instanceof Error ? error : new Error(String(error));
      this.logger.warn({ msg: 'run end not saved', threadId, runId, error: this.saveFailure.message });
      return;
    }
    this.logger.log({
      msg: 'run ended',
      threadId,
      runId,
      status: summary.status,
      phase: outcome.phase,
      iteration: outcome.iteration,
      ...(outcome.usage ? { tokens: outcome.usage.totalTokens } : {}),
      ...(outcome.error ? { error: outcome.error.message } : {}),
    });
    await signals
      .publishRunEnded({ threadId, runId, status: summary.status, stopReason: outcome.stopReason })
      .catch((error: unknown) => this.logger.warn({ msg: 'run-ended notice not published', threadId, runId, error: String(error) }));
  }
}

/** The terminal answer of a run whose end could not be saved. */
function unsavedSummary(error: Error): OutcomeSummary {
  if (error instanceof LeaseLostError) {
    return { status: 'failed', errorCode: error.code, message: `the run stopped: ${error.message}` };
  }
  return {
    status: 'failed',
    errorCode: 'RUN_NOT_SAVED',
    message: `the run's end could not be saved (${error.message}); its steps so far are kept, retry the same request to continue`,
  };
}
