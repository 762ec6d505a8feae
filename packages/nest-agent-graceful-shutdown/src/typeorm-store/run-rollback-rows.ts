import { In, MoreThanOrEqual, type EntityManager } from 'typeorm';
import type { ToolCall } from '../agent/agent-message.js';
import type { RolledBackRun, RollbackRunCommand } from '../contracts/session-store.interface.js';
import type { ThreadStatus } from '../contracts/session-records.js';
import { MessageEntity } from './entities/message.entity.js';
import { ThreadEntity } from './entities/thread.entity.js';
import { ToolCallEntity } from './entities/tool-call.entity.js';
import { understandsFormat } from './record-format.js';
import type { SessionDatabase } from './session-database.js';
import { findToolCallRows } from './tool-call-rows.js';

/**
 * Removes what a thread's last run added inside the caller's transaction (see
 * `SessionStore.rollbackRun`): the thread row locked and checked (no active run, its last
 * attempt `runKey`, the run's messages its last ones), then the run's messages and its tool
 * calls' records deleted and the thread set back to the messages before the run, `idle`.
 */
export async function writeRunRollback(
  db: SessionDatabase,
  manager: EntityManager,
  command: RollbackRunCommand,
  at: string,
): Promise<RolledBackRun | null> {
  const { threadId, runKey, runId } = command;
  const thread = await db.lockThread(manager, threadId);
  if (
    !thread ||
    !understandsFormat(thread) ||
    thread.activeRunId !== null ||
    thread.lastRunKey !== runKey
  )
    return null;
  const messages = manager.getRepository(MessageEntity);
  const added = await messages.find({ where: { threadId, runId }, order: { seq: 'ASC' } });
  const first = added[0]?.seq ?? thread.messageCount;
  // Only a tail is removed: a message after the run's (another run's) leaves the history as it is.
  if ((await messages.count({ where: { threadId, seq: MoreThanOrEqual(first) } })) !== added.length)
    return null;
  const callIds = added.flatMap((row) =>
    row.toolCalls ? (JSON.parse(row.toolCalls) as ToolCall[]).map((call) => call.id) : [],
  );
  const toolCalls = await findToolCallRows(manager, threadId, callIds);
  if (added.length) await messages.delete({ threadId, seq: MoreThanOrEqual(first) });
  if (callIds.length)
    await manager.getRepository(ToolCallEntity).delete({ threadId, toolCallId: In(callIds) });
  const idle: ThreadStatus = 'idle';
  await manager
    .getRepository(ThreadEntity)
    .update({ threadId }, { status: idle, interrupt: null, messageCount: first, updatedAt: at });
  return { runId, messageIds: added.map((row) => row.id), toolCalls };
}
