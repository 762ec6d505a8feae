import { Inject, Injectable } from '@nestjs/common';
import { AnswersStoreOutages } from '../database/store-outages.decorator.js';
import { InvalidThreadListQueryError } from '../errors/invalid-thread-list-query.error.js';
import { checkId, checkUserId } from '../arguments/argument-checks.js';
import { ThreadAccessDeniedError } from '../errors/thread-access-denied.error.js';
import { ThreadNotFoundError } from '../errors/thread-not-found.error.js';
import type { ThreadRecord } from '../contracts/session-records.js';
import { SESSION_STORE, type SessionStore } from '../contracts/session-store.interface.js';
import { THREAD_ACCESS_POLICY, type ThreadAccessPolicy } from './thread-access.policy.js';
import { decodeThreadCursor, encodeThreadCursor } from './thread-cursor.js';
import {
  DEFAULT_THREAD_PAGE_SIZE,
  MAX_THREAD_PAGE_SIZE,
  toThreadListItemView,
  type ThreadListRequest,
  type ThreadListView,
} from './thread-list-view.js';
import { toMessageView, toThreadView, type ThreadView } from './thread-views.js';
import { decodeMessageCursor, encodeMessageCursor } from './message-cursor.js';
import {
  DEFAULT_MESSAGE_PAGE_SIZE,
  MAX_MESSAGE_PAGE_SIZE,
  type MessagePageRequest,
  type MessagePageView,
} from './message-page-view.js';

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
    if (!(await this.access.canAccess(userId, thread)))
      throw new ThreadAccessDeniedError(thread.threadId);
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
    const after = pageCursor(request.cursor, decodeThreadCursor);
    const limit = pageLimit(request.limit, DEFAULT_THREAD_PAGE_SIZE, MAX_THREAD_PAGE_SIZE);
    const page = await this.store.listThreads({ ownerId: userId, limit, after });
    return {
      threads: page.threads.map(toThreadListItemView),
      ...(page.next ? { nextCursor: encodeThreadCursor(page.next) } : {}),
    };
  }

  /**
   * A page of the thread's history, in order; follow `nextCursor` (null on the last page) for
   * the next. The store reads one page, so a large thread costs O(limit) per request.
   * @throws InvalidThreadListQueryError (400) for a `limit` out of 1..1000 or a foreign `cursor`.
   */
  @AnswersStoreOutages()
  async getMessages(
    userId: string,
    threadId: string,
    request: MessagePageRequest = {},
  ): Promise<MessagePageView> {
    const limit = pageLimit(request.limit, DEFAULT_MESSAGE_PAGE_SIZE, MAX_MESSAGE_PAGE_SIZE);
    const afterSeq = pageCursor(request.cursor, decodeMessageCursor);
    await this.getOwnedThread(userId, threadId);
    const page = await this.store.loadMessagePage({ threadId, limit, afterSeq });
    const nextCursor = page.nextAfterSeq === null ? null : encodeMessageCursor(page.nextAfterSeq);
    return { threadId, messages: page.messages.map(toMessageView), nextCursor };
  }
}

/** The page size asked for, or `fallback`; 400 `INVALID_LIMIT` unless an integer from 1 to `max`. */
function pageLimit(limit: number | undefined, fallback: number, max: number): number {
  const value = limit ?? fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new InvalidThreadListQueryError('limit', `must be an integer from 1 to ${max}`);
  }
  return value;
}

/** The position a `cursor` holds, or undefined without one; 400 `INVALID_CURSOR` for a non-string. */
function pageCursor<T>(cursor: unknown, decode: (cursor: string) => T): T | undefined {
  if (cursor === undefined) return undefined;
  if (typeof cursor !== 'string')
    throw new InvalidThreadListQueryError(
      'cursor',
      'must be the nextCursor of the previous page, a string',
    );
  return decode(cursor);
}
