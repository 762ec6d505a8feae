import { Inject, Injectable } from '@nestjs/common';
import { AnswersStoreOutages } from '../session/store-outages.decorator.js';
import { InvalidThreadListQueryError } from '../errors/invalid-thread-list-query.error.js';
import { checkId, checkUserId } from '../arguments/argument-checks.js';
import { ThreadAccessDeniedError } from '../errors/thread-access-denied.error.js';
import { ThreadNotFoundError } from '../errors/thread-not-found.error.js';
import type { ThreadRecord } from '../contracts/session-records.js';
import { SESSION_STORE, type SessionStore } from '../contracts/session-store.interface.js';
import { THREAD_ACCESS_POLICY, type ThreadAccessPolicy } from './thread-access.policy.js';
import { decodeThreadCursor, encodeThreadCursor } from './thread-cursor.js';
import { DEFAULT_THREAD_PAGE_SIZE, MAX_THREAD_PAGE_SIZE, toThreadListItemView, type ThreadListRequest, type ThreadListView } from './thread-list-view.js';
import { toMessageView, toThreadView, type MessageView, type ThreadView } from './thread-views.js';

/** Reads a user's threads: the list, each one's status and history. Served during a shutdown too. */
@Injectable()
export class ThreadQueryService {
  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(THREAD_ACCESS_POLICY) private readonly access: ThreadAccessPolicy,
  ) {}

  /** The thread, if it exists and `userId` may use it; 400 (a malformed id), 404 or 403 errors otherwise. */
  @AnswersStoreOutages()
  async getOwnedThread(userId: string, threadId: string): Promise<ThreadRecord> {
    checkUserId(userId);
    checkId('threadId', threadId);
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

  /**
   * A page of the threads `userId` created, most recently active first; follow `nextCursor`
   * for the next. Threads others share with the user through the access policy are not listed.
   * @throws InvalidThreadListQueryError (400) for a `limit` out of 1..100 or a foreign `cursor`.
   */
  @AnswersStoreOutages()
  async listThreads(userId: string, request: ThreadListRequest = {}): Promise<ThreadListView> {
    checkUserId(userId);
    if (request.cursor !== undefined && typeof request.cursor !== 'string') {
      throw new InvalidThreadListQueryError('cursor', 'must be the nextCursor of the previous page, a string');
    }
    const limit = request.limit ?? DEFAULT_THREAD_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_THREAD_PAGE_SIZE) {
      throw new InvalidThreadListQueryError('limit', `must be an integer from 1 to ${MAX_THREAD_PAGE_SIZE}`);
    }
    const after = request.cursor === undefined ? undefined : decodeThreadCursor(request.cursor);
    const page = await this.store.listThreads({ ownerId: userId, limit, after });
    return { threads: page.threads.map(toThreadListItemView), ...(page.next ? { nextCursor: encodeThreadCursor(page.next) } : {}) };
  }

  @AnswersStoreOutages()
  async getMessages(userId: string, threadId: string): Promise<{ threadId: string; messages: MessageView[] }> {
    await this.getOwnedThread(userId, threadId);
    const messages = await this.store.loadMessages(threadId);
    return { threadId, messages: messages.map(toMessageView) };
  }
}
