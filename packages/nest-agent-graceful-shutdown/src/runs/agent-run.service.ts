import { randomUUID } from 'node:crypto';
import { AnswersStoreOutages } from '../database/store-outages.decorator.js';
import { Inject, Injectable } from '@nestjs/common';
import { AgentRegistry, DEFAULT_AGENT_NAME, type AgentRef } from '../runtime/agent-registry.js';
import { EventLogUnavailableError } from '../errors/event-log-unavailable.error.js';
import type { AgentMessage } from '../agent/agent-message.js';
import { InvalidRunInputError } from '../errors/invalid-run-input.error.js';
import { RunInProgressError } from '../errors/run-in-progress.error.js';
import { AgentVersionChangedError } from '../errors/agent-version-changed.error.js';
import { NewerRecordFormatError } from '../errors/newer-record-format.error.js';
import { RESOLVED_SHUTDOWN_OPTIONS } from '../tokens/graceful-shutdown.tokens.js';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import { AgentReleaseCheck } from './agent-release-check.js';
import { planThreadRun } from './thread-run-plan.js';
import type { ThreadRecord } from '../contracts/session-records.js';
import { RECORD_FORMAT_VERSION } from '../typeorm-store/record-format.js';
import {
  SESSION_STORE,
  ThreadBusyError,
  type QueuedRun,
  type RolledBackRun,
  type SessionStore,
} from '../contracts/session-store.interface.js';
import { LeaseKeeper } from '../leases/lease-keeper.service.js';
import { InFlightRunRegistry } from '../lifecycle/in-flight-run.registry.js';
import { ShutdownCoordinator } from '../shutdown/shutdown-coordinator.service.js';
import { SIGNAL_BUS, type SignalBus } from '../contracts/signal-bus.interface.js';
import { ThreadQueryService } from '../threads/thread-query.service.js';
import { AgentRun } from './agent-run.js';
import type { ResumeMode } from '../options/resume-mode.js';
import { ResumeModeSetting } from './resume-mode.setting.js';
import { RunEventChannel } from '../streams/run-event-channel.js';
import { RUN_EVENT_LOG, type RunEventLog } from '../contracts/run-event-log.interface.js';
import { checkRunInput, type ValidRunInput } from './run-input.js';
import {
  checkEventId,
  checkId,
  checkMultitask,
  checkUserId,
} from '../arguments/argument-checks.js';
import { ActiveRunReplacement } from './active-run-replacement.js';
import { RunQueue } from './run-queue.js';
import { QueueWatch } from './queue-watch.js';
import { assertMessageLimits } from '../options/run-limits.js';
import { AgentTelemetry } from '../telemetry/agent-telemetry.js';
import { RunTelemetry } from '../telemetry/run-telemetry.js';
import { RunStreamService } from './run-stream.service.js';
import { existingRunRequest } from './existing-run-request.js';
import type { RunAnswer, RunRequestOptions } from './run-answer.js';
import { EventLogger } from '../logging/event-logger.js';

/**
 * Starts and continues agent runs on durable threads. Every run it starts carries the
 * graceful-shutdown hook; an interrupted thread is resumed on its next run request.
 */
@Injectable()
export class AgentRunService {
  private readonly logger = new EventLogger('AgentRunService');
  private readonly releases: AgentReleaseCheck;
  private readonly replacement: ActiveRunReplacement;
  private readonly queue: RunQueue;

  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(SIGNAL_BUS) private readonly signals: SignalBus,
    private readonly registry: InFlightRunRegistry,
    private readonly coordinator: ShutdownCoordinator,
    private readonly leases: LeaseKeeper,
    private readonly threads: ThreadQueryService,
    private readonly agents: AgentRegistry,
    @Inject(RUN_EVENT_LOG) private readonly log: RunEventLog,
    private readonly telemetry: AgentTelemetry,
    private readonly streams: RunStreamService,
    private readonly resumeModeSetting: ResumeModeSetting,
    private readonly queueWatch: QueueWatch,
  ) {
    this.releases = new AgentReleaseCheck(options);
    this.replacement = new ActiveRunReplacement({ store, signals, threads, agents, coordinator });
    this.queue = new RunQueue({
      options,
      store,
      log,
      streams,
      threads,
      agents,
      coordinator,
      watch: queueWatch,
    });
  }

  /** Who continues an interrupted run in this deployment (see `RunOptions.resumeMode`); decided once, from the store and the bus. */
  get resumeMode(): ResumeMode {
    return this.resumeModeSetting.mode;
  }

  /**
   * Answers a run request. A `runId` names one run of a thread, so a request naming a run the
   * thread already has is idempotent: an active run (on any instance) is joined, from
   * `request.lastEventId`; an ended one is answered by a replay of its log, or
   * `RunAlreadyEndedError` once the log is gone; an interrupted one resumes. New input under
   * an existing `runId` is refused (`RunIdReusedError`). Two identical requests at once make
   * one run: the second joins it.
   *
   * Otherwise it admits and records a new run. Refuses it, writing nothing, during a shutdown
   * (`ShuttingDownError`), on a thread the access policy refuses `userId`
   * (`ThreadAccessDeniedError`), while
   * the thread has another active run (`RunInProgressError`; with `request.multitask`
   * `interrupt`, or the module's `runs.multitask`, that run is stopped first and this one
   * follows it; with `enqueue` this one is queued and answered with its waiting stream), or over a limit (`limits`:
   * `TooManyRunsError`, `TooManyMessagesError`, `HistoryLimitError`, `ThreadTooLargeError`). Messages already in the history
   * (a client's retry or echo) are not added again. `agent` is an agent or the name it was
   * registered under (`AgentRegistry`); a registered agent's runs can be continued by any
   * instance. Its arguments are checked before anything is read: a malformed `userId` is
   * `InvalidIdError` (400), a malformed `input` (one not from `parseRunInput`)
   * `InvalidRunInputError` (422), a `lastEventId` that is no event id `InvalidEventIdError` (400),
   * a `multitask` this version does not serve `InvalidMultitaskError` (400).
   *
   * @example
   * const run = await runs.start(userId, parseRunInput(body), 'support', { lastEventId });
   * await run.streamTo(response);
   */
  @AnswersStoreOutages()
  async start(
    userId: string,
    input: ValidRunInput,
    agent: AgentRef,
    request: RunRequestOptions = {},
  ): Promise<RunAnswer> {
    checkUserId(userId);
    checkRunInput(input);
    checkEventId('lastEventId', request.lastEventId);
    const multitask = checkMultitask(request.multitask) ?? this.options.multitask;
    this.replacement.check(multitask, this.queue.served);
    const found = await this.store.findThread(input.threadId);
    const existing = found && (await this.existing(userId, found, input, request));
    if (existing) return existing;
    if (this.queue.wants(found, multitask, input))
      return this.queue.enqueue(userId, found, input, agent, request.lastEventId ?? 0);
    const { thread, rolledBack } = await this.replacement.clear(
      userId,
      found,
      input.runId,
      agent,
      multitask,
    );
    try {
      return await this.admit(userId, input, agent, thread, {
        declineApprovals: multitask === 'interrupt',
        rolledBack,
      });
    } catch (error) {
      if (!(error instanceof RunInProgressError)) throw error;
      // Lost a race: an identical request may have made the run meanwhile; then it is joined.
      const now = await this.store.findThread(input.threadId);
      const raced = now && (await this.existing(userId, now, input, request));
      if (raced) return raced;
      // Another run started first: an enqueued request waits for it.
      if (this.queue.wants(now, multitask, input))
        return this.queue.enqueue(userId, now, input, agent, request.lastEventId ?? 0);
      throw error;
    }
  }

  /**
   * Starts `queued`, the next run of `thread`'s queue (multitask `enqueue`), on behalf of the
   * user who queued it: admitted as any new run, taken off the queue by its start, its stream
   * continuing the log its request opened. Null when its agent is not registered on this instance.
   */
  async startQueued(thread: ThreadRecord, queued: QueuedRun): Promise<AgentRun | null> {
    const { threadId, runId, input, agentName } = queued;
    if (!agentName || !this.agents.get(agentName)) return null;
    return this.admit(queued.ownerId, { threadId, runId, ...input }, agentName, thread, {
      queuedRunId: runId,
    });
  }

  /** The answer to a request naming a run `thread` already has; null when the request makes or resumes a run. */
  private async existing(
    userId: string,
    thread: ThreadRecord,
    input: ValidRunInput,
    request: RunRequestOptions,
  ): Promise<RunAnswer | null> {
    const { threadId, runId } = input;
    // A thread a newer release wrote is read no further: the admission refuses it.
    if (thread.newerFormatVersion !== undefined) return null;
    const run =
      thread.lastRun?.runId === runId ? thread.lastRun : await this.store.findRun(threadId, runId);
    if (!run) {
      const queued = await this.queue.find(thread, runId);
      if (!queued) return null;
      await this.threads.assertAccess(userId, thread);
      return this.queue.rejoin(thread, queued, input, request.lastEventId ?? 0);
    }
    await this.threads.assertAccess(userId, thread);
    return existingRunRequest(
      { thread, run, input, lastEventId: request.lastEventId ?? 0 },
      { store: this.store, streams: this.streams },
    );
  }

  /**
   * Continues an interrupted thread with no client (resume mode `auto`): the same run id, its
   * resume message, its log continued. Resolves null when there is nothing to continue here:
   * the thread is not interrupted, its agent is not registered on this instance, or another
   * instance was first.
   */
  async continueInterrupted(threadId: string): Promise<AgentRun | null> {
    checkId('threadId', threadId);
    const thread = await this.store.findThread(threadId);
    const runId =
      thread?.status === 'interrupted'
        ? (thread.interrupt?.runId ?? thread.lastRun?.runId)
        : undefined;
    const agentName = thread?.lastRun?.agentName;
    // A thread a newer release wrote is that release's to continue.
    if (
      !thread ||
      thread.newerFormatVersion !== undefined ||
      !runId ||
      !agentName ||
      !this.agents.get(agentName)
    )
      return null;
    try {
      return await this.admit(
        thread.ownerId,
        { threadId, runId, userMessages: [], resume: [] },
        agentName,
        thread,
        { continued: true },
      );
    } catch (error) {
      // Another instance was first, or this release's policy leaves the thread to the release that wrote it.
      if (error instanceof RunInProgressError || error instanceof AgentVersionChangedError)
        return null;
      throw error;
    }
  }

  /**
   * @param thread the thread as just read; null when it does not exist yet.
   * @param how `continued`: an instance continues the interrupted `thread` on its own, with no
   * client; `declineApprovals`: a new message on a thread paused for approval declines what
   * waits (multitask `interrupt`); `rolledBack`: what this request's rollback removed;
   * `queuedRunId`: the run starts from the thread's queue (multitask `enqueue`).
   */
  private async admit(
    userId: string,
    input: ValidRunInput,
    ref: AgentRef,
    thread: ThreadRecord | null,
    how: {
      continued?: boolean;
      declineApprovals?: boolean;
      rolledBack?: RolledBackRun;
      queuedRunId?: string;
    } = {},
  ): Promise<AgentRun> {
    const { continued = false, declineApprovals = false, rolledBack, queuedRunId } = how;
    const { threadId, runId } = input;
    const { agent, name: agentName } = this.agents.resolve(ref);
    this.coordinator.assertAcceptingRuns();
    if (thread) await this.threads.assertAccess(userId, thread);
    // Refused before the resume plan reads its records or the event log is opened; the store's start checks it again under the row lock.
    if (thread?.newerFormatVersion !== undefined)
      throw new NewerRecordFormatError(threadId, thread.newerFormatVersion, RECORD_FORMAT_VERSION);
    if (thread?.activeRunId) throw new RunInProgressError(threadId, thread.activeRunId);
    const history = thread ? await this.store.loadMessages(threadId) : [];
    // The rolled-back run's input, resent by a client that resends the whole conversation, stays out.
    const known = new Set([
      ...history.map((message) => message.id),
      ...(rolledBack?.messageIds ?? []),
    ]);
    const newMessages = input.userMessages
      .filter((message) => !known.has(message.id))
      .map((message): AgentMessage => ({ id: message.id, role: 'user', content: message.content }));
    if (!thread && newMessages.length === 0) {
      throw new InvalidRunInputError('messages', 'a new thread needs at least one user message');
    }
    assertMessageLimits(this.options.limits, threadId, history, newMessages);
    const plan = await planThreadRun(
      thread,
      history,
      { ...input, declineApprovals: declineApprovals && newMessages.length > 0 },
      {
        agent,
        releases: this.releases,
        resumeMessage: this.options.resumeMessage,
        findToolCalls: (id, ids) => this.store.findToolCalls(id, ids),
      },
    );
    this.coordinator.assertAcceptingRuns();
    const channel = await this.openChannel(thread, threadId, runId);
    const runKey = randomUUID();
    // A plain new run stores its input with its start, so that a concurrent retry finds it held;
    // a resumed or approved run stores it later, after the resume message and the calls it runs first.
    const inputAtStart = plan.toRun.length === 0 && !plan.resumeMessage;
    let fencingToken: number;
    try {
      ({ fencingToken } = await this.store.startRun({
        threadId,
        ownerId: userId,
        runKey,
        runId,
        instanceId: this.options.instanceId,
        agentName,
        agentRelease: plan.release.release,
        messages: inputAtStart ? [...plan.resolvedResults, ...newMessages] : plan.resolvedResults,
        notRunToolCalls: plan.notRun,
        expectedLastRunKey: thread?.lastRun?.key ?? null,
        // A queued run was admitted when it was queued: its turn is not refused for a slot.
        maxActiveRunsPerOwner: queuedRunId ? undefined : this.runSlotLimit(thread),
        queuedRunId,
      }));
    } catch (error) {
      if (error instanceof ThreadBusyError) throw new RunInProgressError(threadId, null);
      throw error;
    }
    await channel.activate(runKey);
    // A run that starts ahead of queued ones (an approval's answer, a replacement): this instance starts them after it.
    if (!queuedRunId && (thread?.queuedRuns ?? 0) > 0) this.queueWatch.watch(threadId);
    return new AgentRun({
      threadId,
      runId,
      runKey,
      fencingToken,
      agent,
      history: [...history, ...plan.resolvedResults],
      toRun: plan.toRun,
      approvedToolCallIds: plan.approvedIds,
      prelude: plan.resumeMessage ? [plan.resumeMessage, ...newMessages] : newMessages,
      preludeStored: inputAtStart,
      resumed: plan.resumeMessage !== null,
      savedState: plan.release.savedState,
      release: {
        agent: plan.release.release,
        change: plan.release.change,
        decision: plan.release.decision,
        notRun: plan.notRun,
      },
      hooks: this.options.hooks,
      store: this.store,
      signals: this.signals,
      shutdown: { registry: this.registry, coordinator: this.coordinator },
      leases: this.leases,
      partialOutput: this.options.partialOutput,
      defaultStepDurationMs: this.options.defaultStepDurationMs,
      sseHeartbeatMs: this.options.sseHeartbeatMs,
      channel,
      streams: {
        retentionMs: this.options.streamRetentionMs,
        resumeMode: this.resumeMode,
        onDisconnect: this.options.onDisconnect,
      },
      // A continued or queued run's log has its RUN_STARTED already.
      continuation: (continued || queuedRunId !== undefined) && channel.continuing,
      rolledBack,
      telemetry: new RunTelemetry(this.telemetry, {
        threadId,
        runId,
        agentName: agentName ?? DEFAULT_AGENT_NAME,
        instanceId: this.options.instanceId,
        ...(plan.resumeMessage ? { resumedBy: continued ? 'auto' : 'client' } : {}),
        resumes: thread?.interrupt?.traceContext,
      }),
    });
  }

  /**
   * The active-run limit a start is held to: none for a run that continues an interrupted
   * thread (admitted once already; refusing it would leave a crash's or a shutdown's work
   * waiting), else `limits.maxActiveRunsPerUser` when set.
   */
  private runSlotLimit(thread: ThreadRecord | null): number | undefined {
    const limit = this.options.limits.maxActiveRunsPerUser;
    return limit > 0 && thread?.status !== 'interrupted' ? limit : undefined;
  }

  /** The run's event log, continued after its last event; a log out of reach refuses the run before anything is written. */
  private async openChannel(
    thread: ThreadRecord | null,
    threadId: string,
    runId: string,
  ): Promise<RunEventChannel> {
    const firstAttempt = async () =>
      !thread || (thread.lastRun?.runId !== runId && !(await this.store.findRun(threadId, runId)));
    try {
      return await RunEventChannel.open(
        this.log,
        { threadId, runId },
        {
          firstAttempt,
          continues: thread?.lastRun?.runId === runId,
          fresh: thread === null,
          onError: (error) =>
            this.logger.warn('run event log write failed', {
              threadId,
              runId,
              error: String(error),
            }),
        },
      );
    } catch (error) {
      this.logger.warn('run event log unreachable, run refused', {
        threadId,
        runId,
        error: String(error),
      });
      throw new EventLogUnavailableError(this.options.retryAfterSeconds, error);
    }
  }
}
