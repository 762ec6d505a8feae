import { Inject, Injectable } from '@nestjs/common';
import { AnswersStoreOutages } from '../session/store-outages.decorator';
import { ThreadAccessDeniedError } from '../errors/thread-access-denied.error';
import { ThreadNotFoundError } from '../errors/thread-not-found.error';
import type { ThreadRecord } from '../session/session-records';
import { SESSION_STORE, type SessionStore } from '../session/session-store.interface';
import { THREAD_ACCESS_POLICY, type ThreadAccessPolicy } from './thread-access.policy';
import { toMessageView, toThreadView, type MessageView, type ThreadView } from './thread-views';

/** Reads a user's threads: status and history. Served during a shutdown too. */
@Injectable()
export class ThreadQueryService {
  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(THREAD_ACCESS_POLICY) private readonly access: ThreadAccessPolicy,
  ) {}

  /** The thread, if it exists and `userId` may use it; 404 or 403 errors otherwise. */
  @AnswersStoreOutages()
  async getOwnedThread(userId: string, threadId: string): Promise<ThreadRecord> {
    const thread = await this.store.findThread(threadId);
    if (!thread) throw new ThreadNotFoundError(threadId);
    await this.assertAccess(userId, thread);
    return thread;
  }

  /** Throws `ThreadAccessDeniedError` (403) unless the policy lets `userId` use `thread`. */
  async assertAccess(userId: string, thread: ThreadRecord): Promise<void> {
    if (!(await this.access.canAccess(userId, thread))) throw new ThreadAccessDeniedError(thread.threadId);
  }

  @AnswersStoreOutages()
  async getStatus(userId: string, threadId: string): Promise<ThreadView> {
    return toThreadView(await this.getOwnedThread(userId, threadId));
  }

  @AnswersStoreOutages()
  async getMessages(userId: string, threadId: string): Promise<{ threadId: string; messages: MessageView[] }> {
    await this.getOwnedThread(userId, threadId);
    const messages = await this.store.loadMessages(threadId);
    return { threadId, messages: messages.map(toMessageView) };
  }
}
