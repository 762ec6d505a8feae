import type { EntityManager } from 'typeorm';
import { ThreadEntity } from './entities/thread.entity.js';
import { insertMessages } from './session-rows.js';
import type { FinishRunCommand } from '../contracts/session-store.interface.js';

/**
 * Appends a run end's closing messages after the thread's last message and counts them, inside
 * the end's transaction (the fenced thread row is already written, so no other writer is in
 * between). Only the runs whose end was written are passed here.
 */
export async function appendClosingMessages(
  manager: EntityManager,
  commands: readonly FinishRunCommand[],
  at: string,
): Promise<void> {
  const threads = manager.getRepository(ThreadEntity);
  for (const { threadId, closingMessages } of commands) {
    if (!closingMessages?.messages.length) continue;
    const { messages, runId } = closingMessages;
    const { messageCount } = await threads.findOneOrFail({
      select: { threadId: true, messageCount: true },
      where: { threadId },
    });
    await insertMessages(manager, threadId, messageCount, runId, messages, at);
    await threads.update({ threadId }, { messageCount: messageCount + messages.length });
  }
}
