import type { EntityManager } from 'typeorm';
import type { CancelApprovalCommand } from '../contracts/session-store.interface.js';
import type { RunStatus, ThreadStatus } from '../contracts/session-records.js';
import { RunEntity } from './entities/run.entity.js';
import { ThreadEntity } from './entities/thread.entity.js';
import { understandsFormat } from './record-format.js';
import type { SessionDatabase } from './session-database.js';
import { insertMessages } from './session-rows.js';

/**
 * Ends a thread's pause for approval inside the caller's transaction (see
 * `SessionStore.cancelApproval`): the thread row locked and checked still paused by the run,
 * the closing messages appended, the run `canceled`, the thread `idle` without a marker.
 */
export async function writeApprovalCancel(
  db: SessionDatabase,
  manager: EntityManager,
  command: CancelApprovalCommand,
  at: string,
): Promise<boolean> {
  const { threadId, runKey, closingMessages } = command;
  const thread = await db.lockThread(manager, threadId);
  const paused: ThreadStatus = 'awaiting_approval';
  if (
    !thread ||
    !understandsFormat(thread) ||
    thread.status !== paused ||
    thread.lastRunKey !== runKey
  )
    return false;
  const { messages, runId } = closingMessages;
  await insertMessages(manager, threadId, thread.messageCount, runId, messages, at);
  const idle: ThreadStatus = 'idle';
  await manager.getRepository(ThreadEntity).update(
    { threadId },
    {
      status: idle,
      interrupt: null,
      messageCount: thread.messageCount + messages.length,
      updatedAt: at,
    },
  );
  const canceled: RunStatus = 'canceled';
  await manager
    .getRepository(RunEntity)
    .update({ key: runKey }, { status: canceled, stopReason: 'canceled' });
  return true;
}
