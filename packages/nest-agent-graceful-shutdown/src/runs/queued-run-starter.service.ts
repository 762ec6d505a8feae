import { AsyncResource } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { ThreadRecord } from '../contracts/session-records.js';
import {
  SESSION_STORE,
  ThreadBusyError,
  type QueuedRun,
  type SessionStore,
} from '../contracts/session-store.interface.js';
import { SIGNAL_BUS, type SignalBus, type Unsubscribe } from '../contracts/signal-bus.interface.js';
import { RUN_EVENT_LOG, type RunEventLog } from '../contracts/run-event-log.interface.js';
import { AgentServiceError } from '../errors/agent-service.error.js';
import { RunInProgressError } from '../errors/run-in-progress.error.js';
import { CrashedRunSweeper } from '../leases/crashed-run-sweeper.service.js';
import { EventLogger } from '../logging/event-logger.js';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import { ShutdownCoordinator } from '../shutdown/shutdown-coordinator.service.js';
import { RESOLVED_SHUTDOWN_OPTIONS } from '../tokens/graceful-shutdown.tokens.js';
import { AgentRunService } from './agent-run.service.js';
import { endQueuedRunLog } from './queued-run-log.js';
import { QueueWatch } from './queue-watch.js';
import { waitForRunEnd } from './run-end-wait.js';

/** How long one wait for a thread's active run lasts before the thread is read again, in milliseconds. */
const ACTIVE_WAIT_MS = 30_000;
/** The pause before a start that failed for a passing reason (a store or log outage) is tried again, in milliseconds. */
const RETRY_PAUSE_MS = 1_000;
/** Queues read per sweep round. */
const SWEEP_BATCH = 100;

/**
 * Multitask `enqueue`, the starting side: starts a thread's queued runs one after another, in
 * arrival order, each as the run before it ends. An instance watches a thread's queue while
 * it holds a queued run's stream (it queued the run, or a client re-joined it here) or started
 * a run on a thread with a queue; after each crash sweep (at boot, then once per lease period)
 * it also takes the queues nobody watches any more (the instance that queued the runs was
 * stopped or killed). Starting is the store's `startRun` with `queuedRunId`, which takes the
 * run off the queue in the same transaction: of every instance that tries, exactly one starts
 * it. A queued run that can never start (its agent refuses the thread, a limit) is taken off
 * the queue and its stream ended with the refusal's code; one that meets an outage waits.
 */
@Injectable()
export class QueuedRunStarter implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new EventLogger('AgentRunService');
  private readonly watching = new Map<string, Promise<void>>();
  private readonly unsubscribe: Unsubscribe[] = [];
  private readonly stopped = new AbortController();
  /**
   * The context the watches run in: the module's, not that of the request that asked for one,
   * so a queued run's log lines do not carry the fields of whichever request queued another.
   */
  private readonly scope = new AsyncResource('QueuedRunStarter');

  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(SIGNAL_BUS) private readonly signals: SignalBus,
    @Inject(RUN_EVENT_LOG) private readonly log: RunEventLog,
    private readonly runs: AgentRunService,
    private readonly queue: QueueWatch,
    private readonly crashes: CrashedRunSweeper,
    private readonly coordinator: ShutdownCoordinator,
  ) {}

  onModuleInit(): void {
    if (!this.store.findQueuedRuns) return;
    this.unsubscribe.push(this.queue.onWatch((threadId) => this.watch(threadId)));
    this.unsubscribe.push(this.crashes.onSwept(() => this.sweep()));
    this.unsubscribe.push(this.coordinator.onClosing(() => this.stopped.abort()));
  }

  onApplicationShutdown(): void {
    this.stopped.abort();
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
  }

  /** Watches the thread's queue until it is empty, held back by a pause for approval, or this instance stops. */
  watch(threadId: string): Promise<void> {
    let watching = this.watching.get(threadId);
    if (!watching) {
      watching = this.scope
        .runInAsyncScope(() => this.drain(threadId))
        .catch((error: unknown) =>
          this.logger.warn('queued runs not started', { threadId, error: String(error) }),
        )
        .finally(() => this.watching.delete(threadId));
      this.watching.set(threadId, watching);
    }
    return watching;
  }

  /** Watches every queue nothing holds back; resolves once each watch has started. */
  async sweep(): Promise<void> {
    if (this.coordinator.isShuttingDown || !this.store.findStartableQueues) return;
    try {
      for (const threadId of await this.store.findStartableQueues(SWEEP_BATCH))
        void this.watch(threadId);
    } catch (error) {
      this.logger.warn('queued-run sweep failed', { error: String(error) });
    }
  }

  private async drain(threadId: string): Promise<void> {
    while (!this.stopped.signal.aborted && !this.coordinator.isShuttingDown) {
      const thread = await this.store.findThread(threadId);
      if (!thread || !(thread.queuedRuns ?? 0) || thread.newerFormatVersion !== undefined) return;
      // A pause for approval holds the queue until it is answered: the run that answers it watches the queue again.
      if (thread.status === 'awaiting_approval') return;
      if (thread.activeRunId) {
        await waitForRunEnd(
          { signals: this.signals, store: this.store },
          threadId,
          thread.activeRunId,
          ACTIVE_WAIT_MS,
          this.stopped.signal,
        );
        continue;
      }
      const [next] = await this.store.findQueuedRuns!(threadId);
      if (!next || !(await this.start(thread, next))) return;
    }
  }

  /**
   * Starts `next`, the head of the thread's queue; another instance starting it first is no
   * failure. False when this instance leaves the queue to others: its agent is not registered here.
   */
  private async start(thread: ThreadRecord, next: QueuedRun): Promise<boolean> {
    const { threadId, runId } = next;
    try {
      const run = await this.runs.startQueued(thread, next);
      if (!run) return false;
      this.logger.log('queued run started', { threadId, runId });
      void run
        .execute()
        .catch((error: unknown) =>
          this.logger.error('queued run failed', { threadId, runId, error: String(error) }),
        );
    } catch (error) {
      if (error instanceof ThreadBusyError || error instanceof RunInProgressError) return true;
      if (error instanceof AgentServiceError && error.getStatus() < 500) {
        await this.refuse(next, error);
        return true;
      }
      this.logger.warn('queued run not started yet', { threadId, runId, error: String(error) });
      // The pause ends with this instance's shutdown too: the other instances' sweeps take the queue.
      await sleep(RETRY_PAUSE_MS, undefined, { signal: this.stopped.signal }).catch(
        () => undefined,
      );
    }
    return true;
  }

  /** A queued run that can never start: off the queue, its stream ended with why. */
  private async refuse(next: QueuedRun, error: AgentServiceError): Promise<void> {
    const { threadId, runId } = next;
    if (!(await this.store.cancelQueuedRun!(threadId, runId))) return;
    this.logger.warn('queued run refused', {
      threadId,
      runId,
      code: error.code,
      error: error.message,
    });
    await endQueuedRunLog(
      this.log,
      { threadId, runId },
      { status: 'failed', errorCode: error.code, message: error.message },
      this.options.streamRetentionMs,
    );
  }
}
