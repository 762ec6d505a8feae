import { EventType, type BaseEvent } from '@ag-ui/core';
import { RunControl } from '../agent/run-control.js';
import { toolResultEvent, type RunEventSink } from '../agent/run-events.js';
import type { RunOutcome } from '../agent/run-outcome.js';
import { StopReason } from '../agent/stop-reason.js';
import { StoreCheckpointer } from '../session/store-checkpointer.js';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import { GracefulShutdownHook } from '../shutdown/graceful-shutdown.hook.js';
import type { InterruptedState } from '../contracts/interrupted-state.js';
import { answerCutToolCalls } from '../resume/cut-tool-calls.js';
import type { AgentMessage } from '../agent/agent-message.js';
import {
  outcomeLabel,
  summarizeOutcome,
  terminalEvent,
  unsavedSummary,
  type OutcomeSummary,
} from './run-outcome-mapping.js';
import type { AgentRunSpec } from './agent-run.types.js';

export type { AgentRunSpec } from './agent-run.types.js';
import { SseEventStream } from '../http/sse-event-stream.js';
import { driveRun } from '../handle/drive-run.js';
import { DurableRunHandle } from '../handle/durable-run-handle.js';
import { toServerResponse, type HttpResponseTarget } from '../http/server-response.js';
import { EventLogger } from '../logging/event-logger.js';
import { announceRelease } from './release-announcement.js';
import { rolledBackEvent } from './rollback-announcement.js';

/** How long the end of an attempt waits for its events to reach the log, in milliseconds. */
const LOG_FLUSH_TIMEOUT_MS = 5_000;

/** One logger for every run: a run holds nothing of its own for logging. */
const logger = new EventLogger('AgentRun');

/**
 * A run that was admitted and recorded. `streamTo` streams its AG-UI events, from
 * `RUN_STARTED` to exactly one terminal event, to a response; `execute` resolves with how it ended.
 */
export class AgentRun {
  /** The run, once started by `streamTo` or `execute`. */
  private running?: Promise<RunOutcome>;
  /** Set when the run's end could not be saved: the client is told instead of a normal ending. */
  private saveFailure?: Error;
  /** Set once the run's end is decided: a disconnect then cancels nothing. */
  private ending?: Promise<void>;
  private readonly control = new RunControl();
  /** The run's handle: its conversation is what the store holds of the thread. */
  private handle?: DurableRunHandle;

  constructor(private readonly spec: AgentRunSpec) {}

  get threadId(): string {
    return this.spec.threadId;
  }

  get runId(): string {
    return this.spec.runId;
  }

  /**
   * Streams the run's events to `response` as server-sent events (an Express `Response`, a
   * Fastify `FastifyReply`, hijacked, or a Node `ServerResponse`) and starts the run. Resolves
   * once the stream is open, so the request's handler returns and what the request held while
   * it was pending (its interceptors' observables and closures) is freed for the run's whole
   * life; the run goes on and ends the response with its terminal event. `await run.execute()`
   * waits for its end.
   */
  streamTo(response: HttpResponseTarget): Promise<void> {
    const stream = new SseEventStream(toServerResponse(response), this.spec.sseHeartbeatMs);
    stream.open();
    const unsubscribe = this.spec.channel.subscribe(stream.write);
    if (this.spec.streams.onDisconnect === 'cancel')
      stream.onClientGone(() => this.cancelOnDisconnect());
    this.execute()
      .catch((error: unknown) =>
        logger.error('run failed outside its handling', {
          threadId: this.threadId,
          runId: this.runId,
          error: String(error),
        }),
      )
      .finally(() => {
        unsubscribe();
        stream.close();
      });
    return Promise.resolve();
  }

  /**
   * Executes the run, once: a second call (after `streamTo`, or from a caller that waits for
   * the end) answers the same outcome. Its events go to the run's log and to the channel's
   * subscribers, from `RUN_STARTED` to exactly one terminal event (or a handover).
   */
  execute(): Promise<RunOutcome> {
    return (this.running ??= this.executeOnce());
  }

  private async executeOnce(): Promise<RunOutcome> {
    const { threadId, runId, runKey, store, signals, channel } = this.spec;
    const emit: RunEventSink = channel.emit;
    const shutdownHook = new GracefulShutdownHook({
      ...this.spec.shutdown,
      signals,
      finalizer: {
        finalize: (outcome, interrupt, onSaved) => this.finalize(outcome, interrupt, onSaved),
      },
      lease: { keeper: this.spec.leases, runKey },
      defaultStepDurationMs: this.spec.defaultStepDurationMs,
      agentRelease: this.spec.release.agent,
    });
    this.spec.telemetry.start();
    if (!this.spec.continuation)
      emit({ type: EventType.RUN_STARTED, threadId, runId } as BaseEvent);
    if (this.spec.rolledBack) emit(rolledBackEvent(this.spec.rolledBack));
    announceRelease(this.spec, emit);
    logger.log('run started', {
      threadId,
      runId,
      resumedCalls: this.spec.toRun.length,
      continuation: this.spec.continuation || undefined,
    });
    const handle = new DurableRunHandle({
      threadId,
      runId,
      fencingToken: this.spec.fencingToken,
      history: this.spec.history,
      pendingToolCalls: this.spec.toRun,
      prelude: this.spec.prelude,
      preludeStored: this.spec.preludeStored,
      approvedToolCallIds: this.spec.approvedToolCallIds,
      resumed: this.spec.resumed,
      savedState: this.spec.savedState,
      versionChange: this.spec.release.change,
      hooks: [...this.spec.hooks, shutdownHook],
      control: this.control,
      checkpointer: new StoreCheckpointer(
        store,
        { threadId, runId, runKey },
        { confirm: (at) => this.spec.leases.confirm(runKey, threadId, at) },
      ),
      emit,
      partialOutput: this.spec.partialOutput,
      toolTraits: (name) => this.spec.agent.toolTraits(name),
      instruments: this.spec.telemetry,
      toolLeftRunning: (call, work) =>
        this.spec.shutdown.registry.toolCallsLeftRunning.add({ threadId, runId, call }, work),
    });
    this.handle = handle;
    const outcome = await this.spec.telemetry.within(() => driveRun(this.spec.agent, handle));
    // The shutdown hook ended the stream with the run's record; this covers a hook chain that did not.
    this.ending ??= this.endStream(outcome);
    await this.ending;
    return outcome;
  }

  /**
   * The run's last events: its terminal event, or at a shutdown in `auto` resume mode a
   * handover (another instance continues the same run and log). Waits until they are in the
   * log, then keeps the log for the retention time and tells every instance the run ended.
   */
  private async endStream(outcome: RunOutcome): Promise<void> {
    const { threadId, runId, channel, streams } = this.spec;
    const summary = this.saveFailure
      ? unsavedSummary(this.saveFailure)
      : summarizeOutcome(outcome, this.control.stopRequest?.replacedBy);
    const handOver = this.handsOver(outcome);
    this.measureEnd(outcome, handOver);
    if (handOver) {
      // The log is settled and the run saved: the instance that continues it may start now.
      await this.publishEnded(summary, outcome);
      channel.handOver();
    } else channel.emit(terminalEvent(threadId, runId, summary));
    await channel.close(LOG_FLUSH_TIMEOUT_MS, streams.retentionMs);
    if (!handOver && !this.saveFailure) await this.publishEnded(summary, outcome);
  }

  /** Tells every instance the run ended (waiters of a cancel, and in `auto` mode who continues a handed-over run). */
  private async publishEnded(summary: OutcomeSummary, outcome: RunOutcome): Promise<void> {
    const { threadId, runId, signals } = this.spec;
    await signals
      .publishRunEnded({ threadId, runId, status: summary.status, stopReason: outcome.stopReason })
      .catch((error: unknown) =>
        logger.warn('run-ended notice not published', { threadId, runId, error: String(error) }),
      );
  }

  /** Counts the attempt's end and closes its trace; a cancel's delivery is measured from its acceptance. */
  private measureEnd(outcome: RunOutcome, handOver: boolean): void {
    const { telemetry } = this.spec;
    telemetry.ended(
      outcome,
      outcomeLabel(outcome, { handOver, saveFailed: this.saveFailure !== undefined }),
      this.saveFailure,
    );
    const request = this.control.stopRequest;
    // Lost while it ran (the lease keeper stopped it) or found at its fenced save: once per attempt.
    if (request?.error instanceof LeaseLostError || this.saveFailure instanceof LeaseLostError)
      telemetry.leaseLost();
    if (outcome.stopReason === StopReason.Canceled && request?.reason === StopReason.Canceled)
      telemetry.cancelDelivered(request.requestedAt);
  }

  private cancelOnDisconnect(): void {
    if (this.ending) return;
    const { threadId, runId, signals } = this.spec;
    logger.log('client disconnected, canceling run', { threadId, runId });
    void signals
      .publishCancel({ threadId, runId })
      .catch((error: unknown) =>
        logger.warn('disconnect cancel not published', { threadId, runId, error: String(error) }),
      );
  }

  /** Saves the run's end, then ends its stream; the shutdown hook holds the run in flight until both are done. */
  private async finalize(
    outcome: RunOutcome,
    interrupt: InterruptedState | null,
    onSaved?: () => void,
  ): Promise<void> {
    if (this.handsOver(outcome)) {
      // In the log before the run reads interrupted: the instance that continues it appends after them.
      this.spec.channel.closeOpen();
      await this.spec.channel.settle(LOG_FLUSH_TIMEOUT_MS);
    }
    const traceContext = interrupt && this.spec.telemetry.traceContext();
    await this.save(
      outcome,
      interrupt && traceContext ? { ...interrupt, traceContext } : interrupt,
    );
    onSaved?.();
    this.ending ??= this.endStream(outcome);
    await this.ending;
  }

  /** At a shutdown in resume mode `auto`, another instance continues the run: no terminal event. */
  private handsOver(outcome: RunOutcome): boolean {
    return (
      this.spec.streams.resumeMode === 'auto' &&
      !this.saveFailure &&
      outcome.stopReason === StopReason.Interrupted
    );
  }

  private async save(outcome: RunOutcome, interrupt: InterruptedState | null): Promise<void> {
    const { threadId, runId, runKey, store } = this.spec;
    const summary = summarizeOutcome(outcome, this.control.stopRequest?.replacedBy);
    const closing = this.closingMessages(interrupt);
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
        ...(closing.length ? { closingMessages: { runId, messages: closing } } : {}),
      });
    } catch (error) {
      // Lease lost: the thread is a newer run's now. Store unreachable: the lease runs out
      // and the thread reads interrupted (crash), resumable from its last checkpoint.
      this.saveFailure = error instanceof Error ? error : new Error(String(error));
      logger.warn('run end not saved', { threadId, runId, error: this.saveFailure.message });
      return;
    }
    for (const message of closing) this.spec.channel.emit(toolResultEvent(message));
    // A shutdown stops thousands of runs at once: their lines would queue on stdout before the
    // exit; the store's 'run ends saved' and the shutdown's 'runs drained' lines count them.
    const byShutdown =
      interrupt?.reason === 'shutdown' && this.spec.shutdown.coordinator.isInterrupting;
    (byShutdown ? logger.debug : logger.log).call(logger, 'run ended', {
      threadId,
      runId,
      status: summary.status,
      phase: outcome.phase,
      iteration: outcome.iteration,
      tokens: outcome.usage?.totalTokens,
      error: outcome.error?.message,
    });
  }

  /**
   * A run that will not be resumed (no marker: canceled, failed, completed) answers the tool
   * calls it cut off as "not completed" with its end; an interrupted or paused run leaves them
   * to its next run, which resolves them (re-running what is safe, or applying the approval).
   */
  private closingMessages(interrupt: InterruptedState | null): AgentMessage[] {
    return interrupt || !this.handle ? [] : answerCutToolCalls(this.handle.messages);
  }
}
