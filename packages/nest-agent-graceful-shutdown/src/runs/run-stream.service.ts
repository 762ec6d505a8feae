import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { BaseEvent } from '@ag-ui/core';
import { EventLogUnavailableError } from '../errors/event-log-unavailable.error.js';
import { RunNotFoundError } from '../errors/run-not-found.error.js';
import { StreamGoneError } from '../errors/stream-gone.error.js';
import { RESOLVED_SHUTDOWN_OPTIONS } from '../tokens/graceful-shutdown.tokens.js';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import { SseEventStream } from '../http/sse-event-stream.js';
import { toServerResponse, type HttpResponseTarget } from '../http/server-response.js';
import { InvalidEventIdError } from '../errors/invalid-event-id.error.js';
import { checkEventId, checkOptionalId } from '../arguments/argument-checks.js';
import { ResumeModeSetting } from './resume-mode.setting.js';
import { terminalEvent } from './run-outcome-mapping.js';
import type { ThreadRecord } from '../contracts/session-records.js';
import { AnswersStoreOutages } from '../database/store-outages.decorator.js';
import { SESSION_STORE, type SessionStore } from '../contracts/session-store.interface.js';
import { ShutdownCoordinator } from '../shutdown/shutdown-coordinator.service.js';
import { ThreadQueryService } from '../threads/thread-query.service.js';
import { ExistingRunStream, type ExistingRunAnswerKind } from '../streams/existing-run-stream.js';
import { JoinedStream } from '../streams/joined-stream.js';
import { AgentTelemetry } from '../telemetry/agent-telemetry.js';
import { isTerminal } from '../streams/stream-shape.js';
import {
  RUN_EVENT_LOG,
  type LoggedEvent,
  type RunEventLog,
  type RunLogKey,
} from '../contracts/run-event-log.interface.js';
import { EventLogger } from '../logging/event-logger.js';
import { QueueWatch } from './queue-watch.js';
import { findQueuedRun } from './queued-run-log.js';

const FIRST_PAGE = 1_000;
/** A run that ended this recently may still be writing its last events to the log, in milliseconds. */
const END_GRACE_MS = 6_000;

/** Where a join starts. */
export interface JoinQuery {
  /** The run; unset: the thread's active run, else its last one. */
  runId?: string;
  /** Replay the events after this id (the SSE `Last-Event-ID`); unset: from the first. */
  lastEventId?: number;
}

/**
 * Joins a run's event stream on any instance: the events after the client's last id from the
 * run's log, then the live ones until the terminal event. The log of a run that had several
 * attempts reads as one AG-UI sequence ending with the run's current terminal event (see
 * `readAsOneRun`); a run stopped for its client to retry ends the join with `RUN_INTERRUPTED`
 * at once. At this instance's shutdown, every joined stream still open ends with a `handover`
 * notice, so its client joins elsewhere.
 */
@Injectable()
export class RunStreamService implements OnModuleInit {
  private readonly logger = new EventLogger('RunStreamService');
  private readonly joined = new Set<JoinedStream>();

  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(RUN_EVENT_LOG) private readonly log: RunEventLog,
    private readonly resumeMode: ResumeModeSetting,
    private readonly threads: ThreadQueryService,
    private readonly coordinator: ShutdownCoordinator,
    private readonly telemetry: AgentTelemetry,
    private readonly queue: QueueWatch,
  ) {}

  onModuleInit(): void {
    this.coordinator.onClosing(() => {
      for (const stream of this.joined) stream.handOver();
    });
  }

  /**
   * Streams the run's events to `response` as server-sent events, resolving once the stream
   * follows the run's log (it goes on until the run's terminal event, a handover or the client
   * leaving). Refuses before writing anything: 400 (a malformed id, or a `lastEventId` that is
   * no event id, such as `Number('abc')`, or one beyond the log's end), 404 (unknown thread or
   * run), 403 (another user's thread), 410 (log evicted or incomplete), 503 (log unreachable).
   */
  @AnswersStoreOutages()
  async join(
    userId: string,
    threadId: string,
    query: JoinQuery,
    response: HttpResponseTarget,
  ): Promise<void> {
    checkOptionalId('runId', query.runId);
    checkEventId('lastEventId', query.lastEventId);
    const thread = await this.threads.getOwnedThread(userId, threadId);
    const runId = query.runId ?? thread.activeRunId ?? thread.lastRun?.runId;
    if (!runId) throw new RunNotFoundError(threadId, '(none yet)');
    const unrecorded =
      runId !== thread.lastRun?.runId && !(await this.store.findRun(threadId, runId));
    const queued = unrecorded && (await this.isQueued(thread, runId));
    // A run taken off the queue before it started (canceled, refused) has no record, only its log's end.
    if (unrecorded && !queued && !(await this.endedInQueue({ threadId, runId })))
      throw new RunNotFoundError(threadId, runId);
    // A client re-joining a queued run here (its instance stopped): this instance starts it when its turn comes.
    if (queued) this.queue.watch(threadId);
    const stream = await this.prepare(thread, runId, query.lastEventId ?? 0, { queued });
    await stream.streamTo(response);
  }

  /**
   * The stream of an existing run of `thread` (already read, its access checked), after event
   * `after`: every refusal (400, 410, 503) is made here, before anything is written. A
   * `queued` run (multitask `enqueue`) is followed as an active one: its stream waits for it.
   */
  async prepare(
    thread: ThreadRecord,
    runId: string,
    after: number,
    how: { queued?: boolean } = {},
  ): Promise<ExistingRunStream> {
    checkEventId('lastEventId', after);
    const key = { threadId: thread.threadId, runId };
    const live = thread.activeRunId === runId || how.queued === true;
    const first = await this.firstPage(key, after, thread, live);
    const kind: ExistingRunAnswerKind = live ? 'joined' : 'replayed';
    return new ExistingRunStream(key.threadId, runId, kind, (response) =>
      this.follow(key, after, first, response, kind === 'replayed'),
    );
  }

  /** @param ended the run was not active when the join began: what it ended with is asked at once. */
  private async follow(
    key: RunLogKey,
    after: number,
    first: LoggedEvent[],
    response: HttpResponseTarget,
    ended: boolean,
  ): Promise<void> {
    const { threadId, runId } = key;
    const stream = new JoinedStream(
      new SseEventStream(toServerResponse(response), this.options.sseHeartbeatMs),
      this.log,
      key,
      after,
      {
        intervalMs: Math.max(1_000, Math.min(this.options.leaseTtlMs, 5_000)),
        checkAtStart: ended,
        check: (last) => this.stoppedNotice(key, last),
      },
    );
    this.joined.add(stream);
    this.logger.log('stream joined', { threadId, runId, lastEventId: after });
    this.telemetry.notify('streamJoined', threadId, runId);
    const forget = () => {
      stream.end();
      this.joined.delete(stream);
    };
    // Resolves once the stream follows the log: the request's handler returns while the stream goes on.
    void stream.done.then(forget);
    try {
      await stream.start(first);
    } catch (error) {
      forget();
      throw error;
    }
  }

  /** The first events to send; a log that is gone or has lost the events asked for is refused here. */
  private async firstPage(
    key: RunLogKey,
    after: number,
    thread: ThreadRecord,
    active: boolean,
  ): Promise<LoggedEvent[]> {
    let first: LoggedEvent[] | null;
    try {
      first = await this.log.read(key, after, FIRST_PAGE);
    } catch (error) {
      this.logger.warn('run event log unreachable, join refused', {
        threadId: key.threadId,
        runId: key.runId,
        error: String(error),
      });
      throw new EventLogUnavailableError(this.options.retryAfterSeconds, error);
    }
    if (first === null && !active) throw new StreamGoneError(key.threadId, key.runId, 'expired');
    if (first?.length && first[0].id > after + 1) {
      throw new StreamGoneError(
        key.threadId,
        key.runId,
        'incomplete',
        `events ${after + 1} to ${first[0].id - 1} are missing`,
      );
    }
    if (first?.length) return first;
    // Nothing after `after`: fine when the client has it all; not when the log lost its end.
    const last = await this.log.last(key).catch(() => undefined);
    // A log that ends before `after` never had that id; a log that is gone may have lost it.
    if (after > 0 && last && last.id < after)
      throw new InvalidEventIdError(key.threadId, key.runId, after, last.id);
    if (after > 0 && last === null)
      throw new StreamGoneError(
        key.threadId,
        key.runId,
        'incomplete',
        `the log ends before event ${after}`,
      );
    const waiting = active || thread.status === 'interrupted';
    if (!waiting && last && !isTerminal(last.event) && !this.recentlyEnded(thread, key.runId)) {
      throw new StreamGoneError(
        key.threadId,
        key.runId,
        'incomplete',
        'the log ends before the run did',
      );
    }
    return [];
  }

  /** Whether the log of a run that has no record ends with a terminal event: a queued run that never started. */
  private async endedInQueue(key: RunLogKey): Promise<boolean> {
    const last = await this.log.last(key).catch(() => null);
    return last !== null && isTerminal(last.event);
  }

  /** Whether `runId` waits in `thread`'s queue. */
  private async isQueued(thread: ThreadRecord, runId: string): Promise<boolean> {
    return (await findQueuedRun(this.store, thread, runId)) !== null;
  }

  private recentlyEnded(thread: ThreadRecord, runId: string): boolean {
    const endedAt = thread.lastRun?.runId === runId ? thread.lastRun.endedAt : null;
    return endedAt !== null && Date.now() - Date.parse(endedAt) < END_GRACE_MS;
  }

  /**
   * Undefined while the run goes on or will be continued; else what ends the join: a
   * `RUN_INTERRUPTED` notice for a run its client must retry, or null for a run that ended. A
   * log whose last event is terminal holds the attempt's end: no grace is given for it.
   */
  private async stoppedNotice(
    key: RunLogKey,
    last: LoggedEvent | null,
  ): Promise<BaseEvent | null | undefined> {
    const thread = await this.store.findThread(key.threadId);
    const endLogged = last !== null && isTerminal(last.event);
    if (
      !thread ||
      thread.activeRunId === key.runId ||
      (!endLogged && this.recentlyEnded(thread, key.runId))
    )
      return undefined;
    if (
      !endLogged &&
      thread.lastRun?.runId !== key.runId &&
      (await this.isQueued(thread, key.runId))
    )
      return undefined;
    const interrupted = thread.status === 'interrupted' && thread.interrupt?.runId === key.runId;
    if (interrupted && this.resumeMode.mode === 'auto') return undefined;
    if (!interrupted) return null;
    return terminalEvent(key.threadId, key.runId, {
      status: 'interrupted',
      errorCode: 'RUN_INTERRUPTED',
      message: 'the run was interrupted and saved; retry the same request to continue it',
    });
  }
}
