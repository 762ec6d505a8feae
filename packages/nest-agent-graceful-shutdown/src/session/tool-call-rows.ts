import { In, type EntityManager } from 'typeorm';
import { ToolCallEntity } from './entities/tool-call.entity.js';
import type { ToolCallRecord } from '../contracts/session-records.js';

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
