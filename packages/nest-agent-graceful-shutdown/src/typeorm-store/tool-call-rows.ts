import { In, type EntityManager } from 'typeorm';
import { ToolCallEntity } from './entities/tool-call.entity.js';
import type { ToolCallRecord } from '../contracts/session-records.js';
import type { StartRunCommand } from '../contracts/session-store.interface.js';

export async function findToolCallRows(
  manager: EntityManager,
  threadId: string,
  ids: readonly string[],
): Promise<ToolCallRecord[]> {
  if (ids.length === 0) return [];
  const rows = await manager
    .getRepository(ToolCallEntity)
    .findBy({ threadId, toolCallId: In([...ids]) });
  return rows.map(toToolCallRecord);
}

/** Calls a run attempt started and never finished: what a crash left pending. */
export async function unfinishedToolCalls(
  manager: EntityManager,
  runKey: string,
): Promise<ToolCallRecord[]> {
  const rows = await manager
    .getRepository(ToolCallEntity)
    .find({ where: { runKey, status: 'started' }, order: { startedAt: 'ASC' } });
  return rows.map(toToolCallRecord);
}

/**
 * Records the calls a run's start answered without running them (`not_run`, with that answer as
 * the result), over any `started` record an earlier attempt left for an idempotent call.
 */
export async function recordNotRunCalls(
  manager: EntityManager,
  command: StartRunCommand,
  at: string,
): Promise<void> {
  const calls = command.notRunToolCalls ?? [];
  if (calls.length === 0) return;
  const rows = calls.map(({ call, result }) => ({
    threadId: command.threadId,
    toolCallId: call.id,
    runKey: command.runKey,
    toolName: call.name,
    arguments: call.arguments,
    status: 'not_run' satisfies ToolCallRecord['status'],
    result,
    startedAt: at,
    finishedAt: at,
  }));
  await manager.getRepository(ToolCallEntity).upsert(rows, ['threadId', 'toolCallId']);
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
