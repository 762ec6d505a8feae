import { Inject, Injectable } from '@nestjs/common';
import { ThreadAccessDeniedError } from '../errors/thread-access-denied.error';
import { ThreadNotFoundError } from '../errors/thread-not-found.error';
import type { ThreadRecord } from '../session/session-records';
import { SESSION_STORE, type SessionStore } from '../session/session-store.interface';
import { toMessageView, toThreadView, type MessageView, type ThreadView } from './thread-views';

/** Reads a user's threads: status and history. Served during a shutdown too. */
@Injectable()
export class ThreadQueryService {
  constructor(@Inject(SESSION_STORE) private readonly store: SessionStore) {}

  /** The thread, if it exists and belongs to `userId`; 404 or 403 errors otherwise. */
  async getOwnedThread(userId: string, threadId: string): Promise<ThreadRecord> {
    const thread = await this.store.findThread(threadId);
    if (!thread) throw new ThreadNotFoundError(threadId);
    if (thread.ownerId !== userId) throw new ThreadAccessDeniedError(threadId);
    return thread;
  }

  async getStatus(userId: string, threadId: string): Promise<ThreadView> {
    return toThreadView(await this.getOwnedThread(userId, threadId));
  }

  async getMessages(userId: string, threadId: string): Promise<{ threadId: string; messages: MessageView[] }> {
    await this.getOwnedThread(userId, threadId);
    const messages = await this.store.loadMessages(threadId);
    return { threadId, messages: messages.map(toMessageView) };
  }
}
