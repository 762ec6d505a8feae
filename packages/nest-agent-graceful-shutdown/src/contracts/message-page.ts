import type { StoredMessage } from './session-records.js';

/** A query of `SessionStore.loadMessagePage`: one page of a thread's history, in order. */
export interface MessagePageQuery {
  threadId: string;
  /** The most messages to return (the caller checks its bounds). */
  limit: number;
  /** Start after the message with this `seq`; absent: from the first message. */
  afterSeq?: number;
}

/** One page of a thread's history, in `seq` order. */
export interface MessagePage {
  messages: StoredMessage[];
  /** The `seq` the next page starts after; null when this page is the last. */
  nextAfterSeq: number | null;
}
