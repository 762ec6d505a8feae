import type { MultitaskStrategy } from '../agent/multitask.js';
import type { ThreadRecord } from '../contracts/session-records.js';
import type { RolledBackRun, SessionStore } from '../contracts/session-store.interface.js';
import type { SignalBus } from '../contracts/signal-bus.interface.js';
import { InvalidMultitaskError } from '../errors/invalid-multitask.error.js';
import { RunInProgressError } from '../errors/run-in-progress.error.js';
import { EventLogger } from '../logging/event-logger.js';
import type { AgentRef, AgentRegistry } from '../runtime/agent-registry.js';
import type { ShutdownCoordinator } from '../shutdown/shutdown-coordinator.service.js';
import type { ThreadQueryService } from '../threads/thread-query.service.js';
import { waitForRunEnd } from './run-end-wait.js';

/** How long a new run waits for the active run it replaces (`interrupt`, `rollback`) to stop, in milliseconds. */
export const REPLACE_WAIT_MS = 30_000;

const logger = new EventLogger('AgentRunService');

/** What the replacement works with: the service's own collaborators. */
export interface ActiveRunReplacementDeps {
  store: SessionStore;
  signals: SignalBus;
  threads: ThreadQueryService;
  agents: AgentRegistry;
  coordinator: ShutdownCoordinator;
}

/** The thread a new run is admitted on once the strategy made way for it, and what a rollback removed. */
export interface ClearedThread {
  thread: ThreadRecord | null;
  rolledBack?: RolledBackRun;
}

/**
 * Makes way for a new run of a thread by its multitask strategy, before the run is admitted:
 * `interrupt` and `rollback` stop the thread's active run on whichever instance runs it (a
 * cancel naming the new run, so it ends `RUN_REPLACED`), and `rollback` then removes what that
 * run, or a run paused for approval, added (`SessionStore.rollbackRun`). `reject` leaves the
 * thread as it is: the admission refuses a busy one.
 */
export class ActiveRunReplacement {
  constructor(private readonly deps: ActiveRunReplacementDeps) {}

  /** Refuses `rollback` or `enqueue` on a store that does not serve it, before anything is read. */
  check(multitask: MultitaskStrategy, queueServed: boolean): void {
    const { store } = this.deps;
    if (
      (multitask === 'rollback' && !store.rollbackRun) ||
      (multitask === 'enqueue' && !queueServed)
    ) {
      const served = [
        'reject',
        'interrupt',
        ...(queueServed ? ['enqueue'] : []),
        ...(store.rollbackRun ? ['rollback'] : []),
      ];
      throw new InvalidMultitaskError(multitask, served);
    }
  }

  /** The thread as the new run `runId` finds it, once `multitask` made way. */
  async clear(
    userId: string,
    thread: ThreadRecord | null,
    runId: string,
    agent: AgentRef,
    multitask: MultitaskStrategy,
  ): Promise<ClearedThread> {
    const replacing = thread?.activeRunId && multitask !== 'reject';
    if (replacing) thread = await this.replaceActive(userId, thread!, runId, agent, multitask);
    // A rollback removes the run it stopped, or the one paused for approval.
    if (
      thread?.lastRun &&
      multitask === 'rollback' &&
      (replacing || thread.status === 'awaiting_approval')
    ) {
      return this.rollBack(userId, thread);
    }
    return { thread };
  }

  /**
   * Stops the thread's active run for the new run `runId`: its stop travels as a cancel naming
   * the new run, so it ends at its next safe point keeping what it did, its stream with
   * `RUN_REPLACED`. Resolves the thread as it is once that end is durable. The caller's access,
   * the agent and this instance's admission are checked first: a request refused anyway stops
   * nothing. A run that has not stopped within `REPLACE_WAIT_MS` leaves the request refused
   * (`RunInProgressError`).
   */
  private async replaceActive(
    userId: string,
    thread: ThreadRecord,
    runId: string,
    agent: AgentRef,
    multitask: MultitaskStrategy,
  ): Promise<ThreadRecord | null> {
    const { store, signals, threads, agents, coordinator } = this.deps;
    const { threadId } = thread;
    const active = thread.activeRunId!;
    agents.resolve(agent);
    coordinator.assertAcceptingRuns();
    await threads.assertAccess(userId, thread);
    const giveUp = new AbortController();
    // Waited on from before the stop is sent, so its run-ended notice is not missed.
    const ended = waitForRunEnd(
      { signals, store },
      threadId,
      active,
      REPLACE_WAIT_MS,
      giveUp.signal,
    );
    try {
      await signals.publishCancel({
        threadId,
        runId: active,
        requestedAt: Date.now(),
        replacedBy: { runId, multitask },
      });
      logger.log('run replacing the active run', {
        threadId,
        runId,
        activeRunId: active,
        multitask,
      });
      if (!(await ended)) throw new RunInProgressError(threadId, active);
    } finally {
      giveUp.abort();
    }
    return store.findThread(threadId);
  }

  /** Removes what the thread's last run added; `RunInProgressError` when the thread moved on meanwhile (another run started). */
  private async rollBack(userId: string, thread: ThreadRecord): Promise<Required<ClearedThread>> {
    const { store, threads } = this.deps;
    await threads.assertAccess(userId, thread);
    const { threadId } = thread;
    const last = thread.lastRun!;
    const rolledBack = await store.rollbackRun!({ threadId, runKey: last.key, runId: last.runId });
    if (!rolledBack) throw new RunInProgressError(threadId, thread.activeRunId);
    logger.log('run rolled back', {
      threadId,
      runId: last.runId,
      messages: rolledBack.messageIds.length,
      toolCalls: rolledBack.toolCalls.length,
    });
    return { thread: await store.findThread(threadId), rolledBack };
  }
}
