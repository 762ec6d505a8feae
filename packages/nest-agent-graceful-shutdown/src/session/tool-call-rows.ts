import { In, type EntityManager } from 'typeorm';
import type { AgentMessage, ToolCall } from '../agent/agent-message';
import { ToolCallEntity } from './entities/tool-call.entity';
import type { ToolCallRecord } from '../contracts/session-records';

/** Records a tool call as started; a call run again (an idempotent tool on resume) is re-recorded. */
export async function insertStartedToolCall(manager: EntityManager, threadId: string, runKey: string, call: ToolCall, at: string): Promise<void> {
  await manager
    .createQueryBuilder()
    .insert()
    .into(ToolCallEntity)
    .values({
      threadId,
      toolCallId: call.id,
      runKey,
      toolName: call.name,
      arguments: call.arguments,
      status: 'started',
      result: null,
      startedAt: at,
      finishedAt: null,
    })
    .orUpdate(['run_key', 'status', 'result', 'started_at', 'finished_at'], ['thread_id', 'tool_call_id'])
    .execute();
}

/** Marks the calls answered by tool messages finished, with their results. */
export async function finishToolCalls(manager: EntityManager, threadId: string, messages: readonly AgentMessage[], at: string): Promise<void> {
  for (const message of messages) {
    if (message.role !== 'tool' || !message.toolCallId) continue;
    await manager
      .getRepository(ToolCallEntity)
      .update({ threadId, toolCallId: message.toolCallId }, { status: 'finished', result: message.content, finishedAt: at });
  }
}

export async function findToolCallRows(manager: EntityManager, threadId: string, ids: readonly string[]): Promise<ToolCallRecord[]> {
  if (ids.length === 0) return [];
  const rows = await manager.getRepository(ToolCallEntity).findBy({ threadId, toolCallId: In([...ids]) });
  return rows.map(toToolCallRecord);
}

/** Calls a run attempt started and never finished: what a crash left pending. */
export async function unfinishedToolCalls(manager: EntityManager, runKey: string): Promise<ToolCallRecord[]> {
  const rows = await manager.getRepository(ToolCallEntity).find({ where: { runKey, status: 'started' }, order: { startedAt: 'ASC' } });
  return rows.map(toToolCallRecord);
}

function toToolCallRecord(row: ToolCallEntity): ToolCallRecord {
  return {
    threadId: row.threadId,
    toolCallId: row.toolCallId,
    runKey: row.runKey,
    toolName: row.toolName,
    arguments: row.arguments,
    status: row.status as ToolCallRecord['status'],
    result: row.result,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}
