import type { AgentMessage } from '../agent/agent-message.js';
import type { RunPhase, StopReason } from '../agent/stop-reason.js';
import type { InterruptedState } from './interrupted-state.js';

/** A thread's status as clients see it. */
export type ThreadStatus = 'idle' | 'running' | 'interrupted' | 'awaiting_approval';

/** A run's status as clients see it. */
export type RunStatus = 'running' | 'completed' | 'canceled' | 'interrupted' | 'failed';

/** One run of a thread, as stored. */
export interface RunRecord {
  /** Storage key: one per attempt, since a client may retry with the same `runId`. */
  key: string;
  threadId: string;
  runId: string;
  status: RunStatus;
  stopReason: StopReason | null;
  errorCode: string | null;
  errorMessage: string | null;
  iteration: number;
  phase: RunPhase | null;
  instanceId: string;
  /** The registered name of the agent that runs it (`AgentRegistry`); null when it had none. */
  agentName: string | null;
  /** The `version` label of the agent that ran this attempt; null for attempts of releases before 0.8. */
  agentVersion: string | null;
  /** The fingerprint of that agent's tools and schemas (and graph); null before 0.8. */
  agentFingerprint: string | null;
  /** Tokens the run's model calls used; null when the model reports none. */
  usage: { promptTokens: number; completionTokens: number } | null;
  startedAt: string;
  endedAt: string | null;
}

/** A thread (session) and its run state. */
export interface ThreadRecord {
  threadId: string;
  ownerId: string;
  status: ThreadStatus;
  messageCount: number;
  activeRunId: string | null;
  interrupt: InterruptedState | null;
  /** The agent framework's state saved for the thread (`RunHandle.saveState`); null when none. */
  runState: unknown;
  lastRun: RunRecord | null;
  /**
   * The format of the thread's records, when a newer release than this one wrote them
   * (`RECORD_FORMAT_VERSION` of that release); absent when this release understands them. The
   * run service leaves such a thread alone, and the store reads neither its marker nor its state.
   */
  newerFormatVersion?: number;
  /** How many runs wait in the thread's queue (multitask `enqueue`); absent from a store without a queue. */
  queuedRuns?: number;
  createdAt: string;
  updatedAt: string;
}

/** A message as stored, with where and when it was written. */
export interface StoredMessage extends AgentMessage {
  seq: number;
  runId: string | null;
  createdAt: string;
}

/** A tool execution as recorded by tool-call id. */
export interface ToolCallRecord {
  threadId: string;
  toolCallId: string;
  runKey: string;
  toolName: string;
  arguments: string;
  /**
   * `started` before the tool runs; `finished` once its result is stored; `not_run` for a call a
   * resume answered without running it (its tool gone or its arguments refused after a change of
   * the agent), with that answer as `result`.
   */
  status: 'started' | 'finished' | 'not_run';
  result: string | null;
  startedAt: string;
  finishedAt: string | null;
}
