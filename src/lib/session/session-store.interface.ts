import type { AgentMessage } from '../agent/agent-message';
import type { RunPhase, StopReason } from '../agent/stop-reason';
import type { InterruptedState } from '../shutdown/interrupted-state';
import type { RunRecord, RunStatus, StoredMessage, ThreadRecord } from './session-records';

/** Everything needed to start a run, written in one transaction. */
export interface StartRunCommand {
  threadId: string;
  ownerId: string;
  runKey: string;
  runId: string;
  instanceId: string;
  /** Messages to append before the run starts (resolved tool calls of an interrupted step). */
  messages: readonly AgentMessage[];
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
  /** Set: the thread reads `interrupted` and resumes on its next run. Null: the marker is cleared. */
  interrupt: InterruptedState | null;
}

/** Where a checkpoint belongs. */
export interface CheckpointTarget {
  threadId: string;
  runId: string;
  runKey: string;
  iteration: number;
  phase: RunPhase;
}

/** Thrown by `startRun` when the thread already has an active run. */
export class ThreadBusyError extends Error {
  override readonly name = 'ThreadBusyError';
}

/**
 * Durable sessions. The embedded SQLite store and the PostgreSQL store implement it;
 * every method is atomic.
 */
export interface SessionStore {
  findThread(threadId: string): Promise<ThreadRecord | null>;
  loadMessages(threadId: string): Promise<StoredMessage[]>;
  /** Creates the thread if needed, appends `messages`, records the run and marks the thread running. */
  startRun(command: StartRunCommand): Promise<void>;
  /** Appends the messages of a finished step; costs O(new messages). */
  appendMessages(target: CheckpointTarget, messages: readonly AgentMessage[]): Promise<void>;
  /** Ends the run and sets the thread's status and interrupt marker together. */
  finishRun(command: FinishRunCommand): Promise<void>;
  /** The latest attempt of a run. */
  findRun(threadId: string, runId: string): Promise<RunRecord | null>;
  /** Marks runs left `running` by a process that is gone as interrupted (`crash`). Returns how many. */
  recoverOrphanedRuns(isOrphan: (run: RunRecord) => boolean): Promise<number>;
  /** Throws when the store cannot be reached. */
  ping(): Promise<void>;
}

/** Injection token of the session store. */
export const SESSION_STORE = Symbol('SESSION_STORE');
