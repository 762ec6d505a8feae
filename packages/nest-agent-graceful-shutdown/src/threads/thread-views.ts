import type { InterruptedState } from '../contracts/interrupted-state.js';
import type {
  RunStatus,
  StoredMessage,
  ThreadRecord,
  ThreadStatus,
} from '../contracts/session-records.js';

/** A thread's status, as `GET /v1/threads/{threadId}` returns it. */
export interface ThreadView {
  threadId: string;
  status: ThreadStatus;
  messageCount: number;
  activeRunId: string | null;
  lastRun: {
    runId: string;
    status: RunStatus;
    stopReason: string | null;
    startedAt: string;
    endedAt: string | null;
    /** Tokens the run's model calls used, when the model reports usage. */
    usage: { promptTokens: number; completionTokens: number } | null;
    /** The `version` label of the agent that ran the run's last attempt; null before 0.8. */
    agentVersion: string | null;
    /** The fingerprint of that agent's tools and graph; null before 0.8. */
    agentFingerprint: string | null;
  } | null;
  interrupt: InterruptedState | null;
  /** How many runs wait in the thread's queue (multitask `enqueue`). */
  queuedRuns: number;
}

/** A message, as `GET /v1/threads/{threadId}/messages` returns it. */
export interface MessageView {
  id: string;
  role: StoredMessage['role'];
  content: string;
  toolCalls?: Array<{
    id: string;
    type: 'function';
    function: { name: string; arguments: string };
  }>;
  toolCallId?: string;
  /** Present and true on an assistant answer cut off by a stop while it streamed. */
  truncated?: true;
  runId: string | null;
  createdAt: string;
}

export function toThreadView(thread: ThreadRecord): ThreadView {
  const run = thread.lastRun;
  return {
    threadId: thread.threadId,
    status: thread.status,
    messageCount: thread.messageCount,
    activeRunId: thread.activeRunId,
    lastRun: run
      ? {
          runId: run.runId,
          status: run.status,
          stopReason: run.stopReason,
          startedAt: run.startedAt,
          endedAt: run.endedAt,
          usage: run.usage,
          agentVersion: run.agentVersion,
          agentFingerprint: run.agentFingerprint,
        }
      : null,
    interrupt: publicMarker(thread.interrupt),
    queuedRuns: thread.queuedRuns ?? 0,
  };
}

export function toMessageView(message: StoredMessage): MessageView {
  return {
    id: message.id,
    role: message.role,
    content: message.content,
    ...(message.toolCalls
      ? {
          toolCalls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        }
      : {}),
    ...(message.toolCallId ? { toolCallId: message.toolCallId } : {}),
    ...(message.truncated ? { truncated: true as const } : {}),
    runId: message.runId,
    createdAt: message.createdAt,
  };
}

/** The marker as the API shows it: the trace ids kept for linking stay inside. */
function publicMarker(marker: InterruptedState | null): InterruptedState | null {
  if (!marker) return null;
  const { traceContext: _kept, ...shown } = marker;
  return shown;
}
