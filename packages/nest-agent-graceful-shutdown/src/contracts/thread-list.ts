import type { ThreadStatus } from './session-records.js';

/** Where a page of a user's threads starts: just after this thread in the list's order. */
export interface ThreadListPosition {
  /** The thread's `updatedAt` (ISO time). */
  updatedAt: string;
  threadId: string;
}

/** A query of `SessionStore.listThreads`. */
export interface ThreadListQuery {
  /** Whose threads: those this user created. */
  ownerId: string;
  /** The most threads to return (the caller checks its bounds). */
  limit: number;
  /** Start after this thread; absent: from the most recently active one. */
  after?: ThreadListPosition;
}

/** A thread as a list shows it. */
export interface ThreadSummary {
  threadId: string;
  ownerId: string;
  /** As `findThread` would read it: a run whose lease expired reads `interrupted`. */
  status: ThreadStatus;
  messageCount: number;
  /** ISO time of the thread's last write (a run started, a step checkpointed, a run ended). */
  updatedAt: string;
}

/** One page of a user's threads, most recently active first (`updatedAt` then `threadId`, both descending). */
export interface ThreadListPage {
  threads: ThreadSummary[];
  /** Where the next page starts; null when this page is the last. */
  next: ThreadListPosition | null;
}
