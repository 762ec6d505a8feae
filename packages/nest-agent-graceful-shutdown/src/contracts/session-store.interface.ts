import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { ModelUsage } from '../agent/agent-model.interface.js';
import type { AgentRelease, NotRunCall } from '../agent/agent-release.js';
import type { RunPhase, StopReason } from '../agent/stop-reason.js';
import type { InterruptedState } from './interrupted-state.js';
import type { MessagePage, MessagePageQuery } from './message-page.js';
import type {
  RunRecord,
  RunStatus,
  StoredMessage,
  ThreadRecord,
  ToolCallRecord,
} from './session-records.js';
import type { StepCommit } from './step-commit.js';
import type { ThreadListPage, ThreadListQuery } from './thread-list.js';

/** Everything needed to start a run, written in one transaction. */
export interface StartRunCommand {
  threadId: string;
  /** Owner of a thread this run creates; an existing thread keeps its owner (access is checked before). */
  ownerId: string;
  runKey: string;
  runId: string;
  instanceId: string;
  /** The registered name of the run's agent, so any instance can continue it; null when unregistered. */
  agentName?: string | null;
  /** The release of the agent that runs this attempt: recorded on the run. @default none (null) */
  agentRelease?: AgentRelease | null;
  /** Messages to append before the run starts (resolved tool calls of an interrupted step). */
  messages: readonly AgentMessage[];
  /**
   * Calls of the interrupted step answered without running (their results are in `messages`):
   * recorded as `not_run` tool calls in the same transaction. @default none
   */
  notRunToolCalls?: readonly NotRunCall[];
  /**
   * The `lastRun.key` the caller planned the run from (null for a thread it saw without
   * runs). When set and the thread has moved on since, nothing is written and
   * `ThreadBusyError` is thrown, so two instances cannot both resume one thread.
   */
  expectedLastRunKey?: string | null;
  /**
   * When set, the run is refused with `TooManyRunsError` (nothing written) if `ownerId`
   * already has this many threads whose run holds a live lease. Counted in the start's own
   * transaction, serialized per owner across instances; runs whose lease expired do not count.
   * @default unset: no limit
   */
  maxActiveRunsPerOwner?: number;
  /**
   * The run starts from the thread's queue (multitask `enqueue`): its queued entry is removed in
   * the start's own transaction, and when there is none (another instance started it, or its user
   * canceled it) nothing is written and `ThreadBusyError` is thrown. So a queued run starts once.
   * @default unset: the run was not queued
   */
  queuedRunId?: string;
}

/** What `startRun` gives the attempt it started. */
export interface StartedRun {
  /**
   * The attempt's fencing token: the thread's lease epoch, raised by one in the start's own
   * transaction, so every new attempt of a thread's runs (a resume, a takeover after a crash, a
   * handover) gets a higher one than any before it. Tools receive it to refuse stale effects.
   * A release older than the one that added it starts runs without raising it.
   */
  fencingToken: number;
}

/** How a run ended, written in one transaction with the thread's new state. */
export interface FinishRunCommand {
  threadId: string;
  runKey: string;
  status: RunStatus;
  stopReason: StopReason;
  iteration: number;
  phase: RunPhase;
  errorCode?: string;
  errorMessage?: string;
  /** Tokens the run's model calls used, when reported. */
  usage?: ModelUsage;
  /** Set: the thread reads `interrupted` and resumes on its next run. Null: the marker is cleared. */
  interrupt: InterruptedState | null;
  /**
   * Messages appended to the history in the end's own transaction (the results of the tool
   * calls a canceled or failed run cut off), under the run's id: the history is valid for
   * the chat format from the moment the run ends. Fenced like the end: a run that lost its
   * lease writes none. @default none
   */
  closingMessages?: { runId: string; messages: readonly AgentMessage[] };
}

/** Where a checkpoint belongs. */
export interface CheckpointTarget {
  threadId: string;
  runId: string;
  runKey: string;
  iteration: number;
  phase: RunPhase;
}

/** A user's cancel of a thread paused for approval: what ends the pause. */
export interface CancelApprovalCommand {
  /** The paused thread. */
  threadId: string;
  /** The paused run's attempt (`lastRun.key`): nothing is written once the thread moved on. */
  runKey: string;
  /** The answers of the calls that waited, appended under the paused run's id. */
  closingMessages: { runId: string; messages: readonly AgentMessage[] };
}

/** A rollback of a thread's last run (multitask `rollback`): which run, by its latest attempt. */
export interface RollbackRunCommand {
  threadId: string;
  /** The run's latest attempt (`lastRun.key`): nothing is removed once the thread moved on. */
  runKey: string;
  runId: string;
}

/** What a rollback removed. */
export interface RolledBackRun {
  runId: string;
  /** The ids of the messages the run had added, in order. */
  messageIds: string[];
  /** The execution records of the run's tool calls: a `finished` one's effect happened and stays. */
  toolCalls: ToolCallRecord[];
}

/** A run's input as it waits in a thread's queue: what its request carried. */
export interface QueuedRunInput {
  /** The user messages of the request, in order. */
  userMessages: { id: string; content: string }[];
  /** Answers to the interrupts of a run paused for approval; empty otherwise. */
  resume: { interruptId: string; status: 'resolved' | 'cancelled'; payload?: unknown }[];
}

/** A run stored to start when the thread's runs before it have ended (multitask `enqueue`). */
export interface EnqueueRunCommand {
  threadId: string;
  runId: string;
  /** Who asked for it: the run is started on their behalf. */
  ownerId: string;
  /** The registered name of the run's agent, so any instance can start it; null when unregistered. */
  agentName: string | null;
  input: QueuedRunInput;
}

/** A run waiting in a thread's queue. */
export interface QueuedRun extends EnqueueRunCommand {
  /** 1 for the next run to start, then 2… in arrival order. */
  position: number;
  /** ISO time the run was queued. */
  enqueuedAt: string;
}

/** Thrown by `startRun` when the thread already has an active run. */
export class ThreadBusyError extends Error {
  override readonly name = 'ThreadBusyError';
}

/**
 * Durable sessions. The embedded SQLite store and the PostgreSQL store implement it;
 * every method is atomic.
 *
 * One writer per thread: `startRun` gives the run a lease (owner instance and expiry) that
 * `renewLeases` extends while it lives. Every write of a run is fenced by its `runKey`:
 * once the thread belongs to a newer run, the write is refused with `LeaseLostError` and
 * nothing is written. A run whose lease expired (its process died) reads as `interrupted`
 * with reason `crash` from then on.
 */
export interface SessionStore {
  /** The thread; a run whose lease expired is first recorded as interrupted by a crash. */
  findThread(threadId: string): Promise<ThreadRecord | null>;
  /** The whole history, in order: what a run needs to call the model. */
  loadMessages(threadId: string): Promise<StoredMessage[]>;
  /**
   * One page of the history, in order, starting after `afterSeq` (keyset pagination: a page
   * costs O(limit) however long the thread), so a reader of a large thread holds neither the
   * whole history in memory nor the event loop.
   */
  loadMessagePage(query: MessagePageQuery): Promise<MessagePage>;
  /**
   * Creates the thread if needed, appends `messages`, records the run, takes the lease, raises
   * the thread's lease epoch and marks the thread running. Resolves with the epoch as the
   * attempt's fencing token: higher than that of every earlier attempt on the thread.
   */
  startRun(command: StartRunCommand): Promise<StartedRun>;
  /**
   * Appends the messages of a finished step; costs O(new messages). Tool messages also mark
   * their tool-call records finished, with the result, in the same transaction.
   */
  appendMessages(target: CheckpointTarget, messages: readonly AgentMessage[]): Promise<void>;
  /** Records that a tool call is about to run (fenced like a checkpoint). */
  recordToolCallStarted(target: CheckpointTarget, call: ToolCall): Promise<void>;
  /** Replaces the agent framework's state of the thread (fenced like a checkpoint); null clears it. */
  saveRunState(target: CheckpointTarget, state: unknown): Promise<void>;
  /**
   * Makes a finished step durable in one atomic write: `step.startedCalls` recorded as started,
   * `step.messages` appended (finishing the calls they answer), `step.state` saved when defined,
   * fenced like a checkpoint, with the lease extended. Refused with `LeaseLostError`, writing
   * nothing, once the run lost its lease. Retried after a lost connection, it does not store
   * the messages twice. A store without it gets the step written through `appendMessages`,
   * `recordToolCallStarted` and `saveRunState`, one after another.
   */
  commitStep?(target: CheckpointTarget, step: StepCommit): Promise<void>;
  /** The tool-call records of a thread among `toolCallIds`. */
  findToolCalls(threadId: string, toolCallIds: readonly string[]): Promise<ToolCallRecord[]>;
  /** Ends the run and sets the thread's status and interrupt marker together; releases the lease. */
  finishRun(command: FinishRunCommand): Promise<void>;
  /**
   * Ends a thread's pause for approval, as a user's cancel does: appends the closing messages,
   * records the paused run `canceled` and makes the thread `idle` without a marker, in one
   * transaction. Resolves false, writing nothing, when the thread is not paused for approval by
   * `runKey` any more (answered, canceled, or a newer release wrote it).
   */
  cancelApproval(command: CancelApprovalCommand): Promise<boolean>;
  /**
   * Removes what a thread's last run added, in one transaction (multitask `rollback`): its
   * messages (the thread's last ones) and its tool calls' records; the thread reads `idle`
   * with the messages before the run. Null, removing nothing, when the thread has an active
   * run, its last attempt is not `runKey`, or anything was appended after the run. Optional: a
   * store without it does not serve `rollback`.
   */
  rollbackRun?(command: RollbackRunCommand): Promise<RolledBackRun | null>;
  /**
   * Stores a run in the thread's queue, after those already there, and counts it in the
   * thread's `queuedRuns`, in one transaction. Idempotent: a run the queue holds already is
   * answered as it is. Resolves null, storing nothing, when the thread does not exist or a newer
   * release wrote it. The run starts through `startRun` with `queuedRunId`. Optional, with
   * `findQueuedRuns` and `cancelQueuedRun`: a store without them does not serve `enqueue`.
   */
  enqueueRun?(command: EnqueueRunCommand): Promise<QueuedRun | null>;
  /** The thread's queued runs, the next to start first. */
  findQueuedRuns?(threadId: string): Promise<QueuedRun[]>;
  /** Removes a run from the thread's queue (its user canceled it); false when it was not queued (started, or canceled before). */
  cancelQueuedRun?(threadId: string, runId: string): Promise<boolean>;
  /**
   * Up to `limit` threads with queued runs that nothing holds back: no active run and no pause for
   * approval, the longest waiting first. What an instance starts when the instance that queued
   * a run is gone.
   */
  findStartableQueues?(limit: number): Promise<string[]>;
  /**
   * Extends the leases `instanceId` holds for these run attempts. Returns the run keys whose
   * lease is gone (taken over or recovered as a crash): those runs must stop. It must not
   * queue behind checkpoints (the TypeORM store renews on a connection of its own), and a
   * store shared by instances must judge expiry on one clock they share, not each its own.
   */
  renewLeases(instanceId: string, runKeys: readonly string[]): Promise<string[]>;
  /** The latest attempt of a run. */
  findRun(threadId: string, runId: string): Promise<RunRecord | null>;
  /**
   * Records runs whose lease has expired as interrupted by a crash, and also, when
   * `exclusiveInstanceId` is given (a store no other live instance uses, such as an embedded
   * file), every run held by another instance. Runs in `exceptRunKeys` (the caller's own,
   * whose leases it still renews) are never recorded. Returns how many.
   */
  recoverCrashedRuns(options?: {
    exclusiveInstanceId?: string;
    exceptRunKeys?: readonly string[];
  }): Promise<number>;
  /**
   * Up to `limit` threads that read `interrupted` (a shutdown or a crash, not an approval
   * pause), the longest waiting first: what an instance in resume mode `auto` continues.
   */
  findInterruptedThreads?(limit: number): Promise<string[]>;
  /**
   * A page of the threads `ownerId` created, most recently active first (`updatedAt`, then
   * `threadId`, both descending, so ties keep one order), starting after `after` (keyset
   * pagination: a page costs O(limit), however deep). A read only: a run whose lease expired
   * reads `interrupted` without being recorded.
   */
  listThreads(query: ThreadListQuery): Promise<ThreadListPage>;
  /** Throws when the store cannot be reached. */
  ping(): Promise<void>;
  /** True when no other process can share this store (an embedded file): the boot sweep may then take over every run. */
  isExclusive?(): boolean;
}

export { SESSION_STORE } from '../tokens/graceful-shutdown.tokens.js';
