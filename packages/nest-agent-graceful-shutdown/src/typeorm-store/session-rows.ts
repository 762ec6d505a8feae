import type { EntityManager } from 'typeorm';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { RunPhase, StopReason } from '../agent/stop-reason.js';
import type { InterruptedState } from '../contracts/interrupted-state.js';
import { MessageEntity } from './entities/message.entity.js';
import type { RunEntity } from './entities/run.entity.js';
import { understandsFormat } from './record-format.js';
import type { ThreadEntity } from './entities/thread.entity.js';
import type {
  RunRecord,
  RunStatus,
  StoredMessage,
  ThreadRecord,
  ThreadStatus,
} from '../contracts/session-records.js';

// Rows to records and back: the store's only knowledge of column encodings (JSON in text columns).

/** Appends messages with consecutive `seq` numbers from `firstSeq`. */
export async function insertMessages(
  manager: EntityManager,
  threadId: string,
  firstSeq: number,
  runId: string,
  messages: readonly AgentMessage[],
  at: string,
): Promise<void> {
  if (messages.length === 0) return;
  await manager.getRepository(MessageEntity).insert(
    messages.map((message, index) => ({
      threadId,
      seq: firstSeq + index,
      id: message.id,
      role: message.role,
      content: message.content,
      toolCalls: message.toolCalls?.length ? JSON.stringify(message.toolCalls) : null,
      toolCallId: message.toolCallId ?? null,
      truncated: message.truncated === true,
      runId,
      createdAt: at,
    })),
  );
}

export function toStoredMessage(row: MessageEntity): StoredMessage {
  return {
    id: row.id,
    role: row.role as StoredMessage['role'],
    content: row.content,
    ...(row.toolCalls ? { toolCalls: JSON.parse(row.toolCalls) as ToolCall[] } : {}),
    ...(row.toolCallId ? { toolCallId: row.toolCallId } : {}),
    ...(row.truncated ? { truncated: true } : {}),
    seq: row.seq,
    runId: row.runId,
    createdAt: row.createdAt,
  };
}

export function toRunRecord(row: RunEntity): RunRecord {
  return {
    key: row.key,
    threadId: row.threadId,
    runId: row.runId,
    status: row.status as RunStatus,
    stopReason: row.stopReason as StopReason | null,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    iteration: row.iteration,
    phase: row.phase as RunPhase | null,
    instanceId: row.instanceId,
    agentName: row.agentName ?? null,
    agentVersion: row.agentVersion ?? null,
    agentFingerprint: row.agentFingerprint ?? null,
    usage:
      row.promptTokens === null || row.completionTokens === null
        ? null
        : { promptTokens: row.promptTokens, completionTokens: row.completionTokens },
    startedAt: row.startedAt,
    endedAt: row.endedAt,
  };
}

export function toThreadRecord(thread: ThreadEntity, lastRun: RunEntity | null): ThreadRecord {
  const understood = understandsFormat(thread);
  return {
    threadId: thread.threadId,
    ownerId: thread.ownerId,
    status: thread.status as ThreadStatus,
    messageCount: thread.messageCount,
    activeRunId: thread.activeRunId,
    // A newer release's marker and state may not read as this release's: they are left unread.
    interrupt:
      thread.interrupt && understood ? (JSON.parse(thread.interrupt) as InterruptedState) : null,
    runState: thread.runState && understood ? (JSON.parse(thread.runState) as unknown) : null,
    lastRun: lastRun ? toRunRecord(lastRun) : null,
    ...(understood ? {} : { newerFormatVersion: thread.formatVersion }),
    queuedRuns: thread.queuedRuns ?? 0,
    createdAt: thread.createdAt,
    updatedAt: thread.updatedAt,
  };
}
