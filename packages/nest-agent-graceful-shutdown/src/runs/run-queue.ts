import type { AgentMessage } from '../agent/agent-message.js';
import type { MultitaskStrategy } from '../agent/multitask.js';
import type { ThreadRecord } from '../contracts/session-records.js';
import type { QueuedRun, SessionStore } from '../contracts/session-store.interface.js';
import type { RunEventLog } from '../contracts/run-event-log.interface.js';
import { EventLogUnavailableError } from '../errors/event-log-unavailable.error.js';
import { InvalidMultitaskError } from '../errors/invalid-multitask.error.js';
import { NewerRecordFormatError } from '../errors/newer-record-format.error.js';
import { RunIdReusedError } from '../errors/run-id-reused.error.js';
import { RunInProgressError } from '../errors/run-in-progress.error.js';
import { EventLogger } from '../logging/event-logger.js';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import { assertMessageLimits } from '../options/run-limits.js';
import type { AgentRef, AgentRegistry } from '../runtime/agent-registry.js';
import { RECORD_FORMAT_VERSION } from '../typeorm-store/record-format.js';
import type { ShutdownCoordinator } from '../shutdown/shutdown-coordinator.service.js';
import type { ExistingRunStream } from '../streams/existing-run-stream.js';
import type { ThreadQueryService } from '../threads/thread-query.service.js';
import { findQueuedRun, openQueuedRunLog } from './queued-run-log.js';
import type { QueueWatch } from './queue-watch.js';
import type { ValidRunInput } from './run-input.js';
import type { RunStreamService } from './run-stream.service.js';

const logger = new EventLogger('AgentRunService');

/** What the queue works with: the run service's own collaborators. */
export interface RunQueueDeps {
  options: Pick<ResolvedShutdownOptions, 'limits' | 'retryAfterSeconds'>;
  store: SessionStore;
  log: RunEventLog;
  streams: RunStreamService;
  threads: ThreadQueryService;
  agents: AgentRegistry;
  coordinator: ShutdownCoordinator;
  watch: QueueWatch;
}

/**
 * Multitask `enqueue`, the request's side: a new run on a thread that is busy (an active run, a
 * pause for approval, or runs queued before it) is stored in the thread's queue at once and
 * answered with its stream, which waits and then follows the run once it starts (see
 * `openQueuedRunLog`). `QueuedRunStarter` starts it when its turn comes, on this instance or,
 * when this one is gone, on another.
 */
export class RunQueue {
  constructor(private readonly deps: RunQueueDeps) {}

  /** Whether the store serves a queue. */
  get served(): boolean {
    const { store } = this.deps;
    return Boolean(store.enqueueRun && store.findQueuedRuns && store.cancelQueuedRun);
  }

  /** Whether a new run with `multitask` waits in `thread`'s queue; an approval's answer never does (the queue waits for it). */
  wants(
    thread: ThreadRecord | null,
    multitask: MultitaskStrategy,
    input: ValidRunInput,
  ): thread is ThreadRecord {
    if (multitask !== 'enqueue' || !thread || input.resume.length > 0) return false;
    return (
      thread.activeRunId !== null ||
      thread.status === 'awaiting_approval' ||
      (thread.queuedRuns ?? 0) > 0
    );
  }

  /**
   * Queues the run and answers with its stream. Checked first, writing nothing when refused: the
   * agent (registered, so any instance can start the run), this instance's admission, the
   * caller's access, the thread's record format and the message limits.
   */
  async enqueue(
    userId: string,
    thread: ThreadRecord,
    input: ValidRunInput,
    ref: AgentRef,
    lastEventId: number,
  ): Promise<ExistingRunStream> {
    const { store, log, agents, coordinator, threads, options } = this.deps;
    const { threadId, runId } = input;
    const { name } = agents.resolve(ref);
    // An agent passed as an object and not registered cannot be started by another instance.
    if (!name) throw new InvalidMultitaskError('enqueue', ['reject', 'interrupt', 'rollback']);
    coordinator.assertAcceptingRuns();
    await threads.assertAccess(userId, thread);
    if (thread.newerFormatVersion !== undefined)
      throw new NewerRecordFormatError(threadId, thread.newerFormatVersion, RECORD_FORMAT_VERSION);
    const history = await store.loadMessages(threadId);
    const known = new Set(history.map((message) => message.id));
    const added = input.userMessages
      .filter((message) => !known.has(message.id))
      .map((message): AgentMessage => ({ ...message, role: 'user' }));
    assertMessageLimits(options.limits, threadId, history, added);
    const queued = await store.enqueueRun!({
      threadId,
      runId,
      ownerId: userId,
      agentName: name,
      input: { userMessages: input.userMessages, resume: input.resume },
    });
    if (!queued) throw new RunInProgressError(threadId, thread.activeRunId);
    try {
      await openQueuedRunLog(log, queued, thread.activeRunId);
    } catch (error) {
      // Its stream could not be opened: the run is taken off the queue again, so nothing stays written.
      await store.cancelQueuedRun!(threadId, runId);
      logger.warn('run event log unreachable, queued run refused', {
        threadId,
        runId,
        error: String(error),
      });
      throw new EventLogUnavailableError(options.retryAfterSeconds, error);
    }
    logger.log('run queued', {
      threadId,
      runId,
      position: queued.position,
      activeRunId: thread.activeRunId,
    });
    return this.follow(thread, queued, lastEventId);
  }

  /** The queued run `runId` of `thread`; the queue is read only when the thread has one. */
  find(thread: ThreadRecord, runId: string): Promise<QueuedRun | null> {
    return findQueuedRun(this.deps.store, thread, runId);
  }

  /**
   * A request naming a queued run (a client's retry, or its re-join through another instance
   * after a handover): the same input joins its stream, other input is `RunIdReusedError`.
   */
  async rejoin(
    thread: ThreadRecord,
    queued: QueuedRun,
    input: ValidRunInput,
    lastEventId: number,
  ): Promise<ExistingRunStream> {
    const { threadId, runId } = queued;
    if (
      input.resume.length &&
      JSON.stringify(input.resume) !== JSON.stringify(queued.input.resume)
    ) {
      throw new RunIdReusedError(
        threadId,
        runId,
        'resume',
        'the queued run has other approval answers',
      );
    }
    const held = new Map(queued.input.userMessages.map((message) => [message.id, message.content]));
    const other = input.userMessages.find((message) => held.get(message.id) !== message.content);
    // Messages the thread holds may be resent with it (a client resends the whole conversation).
    if (other && !(await this.inHistory(threadId, other))) {
      throw new RunIdReusedError(
        threadId,
        runId,
        'messages',
        `message ${other.id} is not in the queued run`,
      );
    }
    return this.follow(thread, queued, lastEventId);
  }

  /** The queued run's stream, from `lastEventId`; this instance watches the thread's queue from now on. */
  private async follow(
    thread: ThreadRecord,
    queued: QueuedRun,
    lastEventId: number,
  ): Promise<ExistingRunStream> {
    this.deps.watch.watch(thread.threadId);
    return this.deps.streams.prepare(thread, queued.runId, lastEventId, { queued: true });
  }

  private async inHistory(
    threadId: string,
    message: { id: string; content: string },
  ): Promise<boolean> {
    const stored = (await this.deps.store.loadMessages(threadId)).find(
      (held) => held.id === message.id,
    );
    return stored?.role === 'user' && stored.content === message.content;
  }
}
