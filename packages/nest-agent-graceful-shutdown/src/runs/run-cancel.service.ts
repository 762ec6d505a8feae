import { findDanglingToolCalls } from '../resume/dangling-tool-calls.js';
import { toolResultMessage } from '../resume/tool-result-message.js';
import type { RunRecord, ThreadRecord } from '../contracts/session-records.js';
import { Inject, Injectable } from '@nestjs/common';
import { AnswersStoreOutages } from '../database/store-outages.decorator.js';
import { RunNotFoundError } from '../errors/run-not-found.error.js';
import { checkOptionalId, checkWaitMs } from '../arguments/argument-checks.js';
import { SESSION_STORE, type SessionStore } from '../contracts/session-store.interface.js';
import { SIGNAL_BUS, type SignalBus } from '../contracts/signal-bus.interface.js';
import { ThreadQueryService } from '../threads/thread-query.service.js';
import { waitForRunEnd } from './run-end-wait.js';
import { RUN_EVENT_LOG, type RunEventLog } from '../contracts/run-event-log.interface.js';
import { RESOLVED_SHUTDOWN_OPTIONS } from '../tokens/graceful-shutdown.tokens.js';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import { endQueuedRunLog } from './queued-run-log.js';

/** The answer to a cancel request. */
export interface CancelResult {
  threadId: string;
  runId: string | null;
  accepted: true;
  /** With `waitMs` only: whether the run has stopped. */
  stopped?: boolean;
  stopReason?: string | null;
  messageCount?: number;
}

/**
 * A user's stop. The cancel travels on the signal bus to whichever instance runs the
 * thread; the run stops at its next safe point with every message so far kept. A run waiting
 * in the thread's queue (multitask `enqueue`) is taken off it, its stream ended with
 * `RUN_ERROR` `RUN_CANCELED`. Idempotent: cancelling a finished run changes nothing.
 */
@Injectable()
export class RunCancelService {
  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    @Inject(RUN_EVENT_LOG) private readonly log: RunEventLog,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(SIGNAL_BUS) private readonly signals: SignalBus,
    private readonly threads: ThreadQueryService,
  ) {}

  /**
   * @param runId the run to stop; default the active run.
   * @param waitMs wait up to this many milliseconds for the run to stop, and say whether it did.
   * @throws InvalidIdError (400) for a malformed id, InvalidWaitError (400) for a `waitMs` that
   * is not an integer from 0 to 2147483647, before anything is read.
   */
  @AnswersStoreOutages()
  async cancel(
    userId: string,
    threadId: string,
    runId?: string,
    waitMs?: number,
  ): Promise<CancelResult> {
    checkOptionalId('runId', runId);
    checkWaitMs(waitMs);
    let thread = await this.threads.getOwnedThread(userId, threadId);
    if (runId && !(await this.store.findRun(threadId, runId))) {
      if (await this.cancelQueued(thread, runId)) return this.queuedCanceled(thread, runId, waitMs);
      // Not queued either, unless it started meanwhile.
      if (!(await this.store.findRun(threadId, runId))) throw new RunNotFoundError(threadId, runId);
    }
    const paused = thread.status === 'awaiting_approval' ? thread.lastRun : null;
    if (paused && (runId ?? paused.runId) === paused.runId) {
      if (await this.endApproval(thread, paused))
        return this.approvalCanceled(thread, paused, waitMs);
      // The approval was answered meanwhile: the run it started is stopped as any other.
      thread = await this.threads.getOwnedThread(userId, threadId);
    }
    const target = runId ?? thread.activeRunId ?? thread.lastRun?.runId ?? null;
    const active = target !== null && thread.activeRunId === target;
    const giveUp = new AbortController();
    // Waited on from before the cancel is sent, so its run-ended notice is not missed.
    const ended =
      active && waitMs !== undefined
        ? waitForRunEnd(
            { signals: this.signals, store: this.store },
            threadId,
            target!,
            waitMs,
            giveUp.signal,
          )
        : undefined;
    try {
      if (active)
        await this.signals.publishCancel({ threadId, runId: target, requestedAt: Date.now() });
      if (waitMs === undefined) return { threadId, runId: target, accepted: true };
      await ended;
    } finally {
      giveUp.abort();
    }
    const run = target ? await this.store.findRun(threadId, target) : null;
    const after = await this.store.findThread(threadId);
    return {
      threadId,
      runId: target,
      accepted: true,
      stopped: run ? run.status !== 'running' : true,
      stopReason: run?.stopReason ?? null,
      messageCount: after?.messageCount ?? thread.messageCount,
    };
  }

  /**
   * A cancel of a thread paused for approval ends the pause: each call that waited is answered
   * as canceled (it never ran), the run reads `canceled` and the thread `idle`, so the next
   * message starts afresh instead of meeting the old approval. False when the pause had ended.
   */
  private async endApproval(thread: ThreadRecord, run: RunRecord): Promise<boolean> {
    const history = await this.store.loadMessages(thread.threadId);
    const messages = findDanglingToolCalls(history).map((call) =>
      toolResultMessage(call, CANCELED_APPROVAL_RESULT),
    );
    return this.store.cancelApproval({
      threadId: thread.threadId,
      runKey: run.key,
      closingMessages: { runId: run.runId, messages },
    });
  }

  /** Takes a queued run off the thread's queue and ends its stream; false when it was not queued. */
  private async cancelQueued(thread: ThreadRecord, runId: string): Promise<boolean> {
    const { threadId } = thread;
    if (
      !(thread.queuedRuns ?? 0) ||
      !this.store.cancelQueuedRun ||
      !(await this.store.cancelQueuedRun(threadId, runId))
    )
      return false;
    const summary = {
      status: 'canceled' as const,
      errorCode: 'RUN_CANCELED',
      message: 'the run was canceled by its user before it started',
    };
    await endQueuedRunLog(this.log, { threadId, runId }, summary, this.options.streamRetentionMs);
    return true;
  }

  private queuedCanceled(
    thread: ThreadRecord,
    runId: string,
    waitMs: number | undefined,
  ): CancelResult {
    const { threadId } = thread;
    if (waitMs === undefined) return { threadId, runId, accepted: true };
    return {
      threadId,
      runId,
      accepted: true,
      stopped: true,
      stopReason: 'canceled',
      messageCount: thread.messageCount,
    };
  }

  private async approvalCanceled(
    thread: ThreadRecord,
    run: RunRecord,
    waitMs: number | undefined,
  ): Promise<CancelResult> {
    const { threadId } = thread;
    if (waitMs === undefined) return { threadId, runId: run.runId, accepted: true };
    const after = await this.store.findThread(threadId);
    return {
      threadId,
      runId: run.runId,
      accepted: true,
      stopped: true,
      stopReason: 'canceled',
      messageCount: after?.messageCount ?? thread.messageCount,
    };
  }
}

/** Text of the tool result of a call that waited for approval when its user canceled the run. */
export const CANCELED_APPROVAL_RESULT =
  'canceled: the user stopped the run while this tool call waited for approval, so it was not run.';
