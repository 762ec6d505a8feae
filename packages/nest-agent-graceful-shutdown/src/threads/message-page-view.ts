import type { MessageView } from './thread-views.js';

/** How many messages a page holds when the caller does not say. */
export const DEFAULT_MESSAGE_PAGE_SIZE = 100;
/** The most messages one page may hold. */
export const MAX_MESSAGE_PAGE_SIZE = 1000;

/** A page of a thread's history, as `GET /v1/threads/{threadId}/messages` returns it: in order. */
export interface MessagePageView {
  threadId: string;
  messages: MessageView[];
  /** Pass it as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** What a message page asks for: both optional. */
export interface MessagePageRequest {
  /** Messages per page, 1 to `MAX_MESSAGE_PAGE_SIZE`. @default DEFAULT_MESSAGE_PAGE_SIZE */
  limit?: number;
  /** The previous page's `nextCursor`; absent: the first page. */
  cursor?: string;
}
