import type { ThreadStatus } from '../contracts/session-records.js';
import type { ThreadSummary } from '../contracts/thread-list.js';

/** How many threads a page holds when the caller does not say. */
export const DEFAULT_THREAD_PAGE_SIZE = 50;
/** The most threads one page may hold. */
export const MAX_THREAD_PAGE_SIZE = 100;

/** A thread in a list, as `GET /v1/threads` returns it. */
export interface ThreadListItemView {
  threadId: string;
  status: ThreadStatus;
  messageCount: number;
  /** ISO time of the thread's last activity. */
  updatedAt: string;
}

/** A page of the caller's threads, as `GET /v1/threads` returns it: most recently active first. */
export interface ThreadListView {
  threads: ThreadListItemView[];
  /** Pass it as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

/** What a thread list asks for: both optional. */
export interface ThreadListRequest {
  /** Threads per page, 1 to `MAX_THREAD_PAGE_SIZE`. @default DEFAULT_THREAD_PAGE_SIZE */
  limit?: number;
  /** The previous page's `nextCursor`; absent: the first page. */
  cursor?: string;
}

export function toThreadListItemView(thread: ThreadSummary): ThreadListItemView {
  return {
    threadId: thread.threadId,
    status: thread.status,
    messageCount: thread.messageCount,
    updatedAt: thread.updatedAt,
  };
}
