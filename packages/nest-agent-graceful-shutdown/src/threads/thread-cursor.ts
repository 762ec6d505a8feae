import { isValidId } from '../arguments/id-rule.js';
import { isStorableText } from '../arguments/text-rule.js';
import { decodeCursorPair, invalidCursor } from './page-cursor.js';
import type { ThreadListPosition } from '../contracts/thread-list.js';

// Longest cursor accepted, in characters: an ISO time and a 128-character id fit with room to spare.
const MAX_CURSOR_LENGTH = 512;

/**
 * The opaque `nextCursor` of a thread list: its position as base64url JSON. Clients pass it
 * back unchanged; its form may change between versions.
 *
 * @example
 * encodeThreadCursor({ updatedAt: '2025-01-02T03:04:05.000Z', threadId: 't1' }); // 'WyIyMDI1LTAx…'
 */
export function encodeThreadCursor(position: ThreadListPosition): string {
  return Buffer.from(JSON.stringify([position.updatedAt, position.threadId])).toString('base64url');
}

/**
 * The position a cursor from `encodeThreadCursor` holds.
 * @throws InvalidThreadListQueryError (400 `INVALID_CURSOR`) for anything else.
 */
export function decodeThreadCursor(cursor: string): ThreadListPosition {
  const [updatedAt, threadId] = decodeCursorPair(cursor, MAX_CURSOR_LENGTH);
  // Both go to the store as query values: nothing in them may be what a store refuses.
  const validTime =
    typeof updatedAt === 'string' &&
    updatedAt.length <= 32 &&
    isStorableText(updatedAt) &&
    !Number.isNaN(Date.parse(updatedAt));
  const validId = typeof threadId === 'string' && isValidId(threadId);
  if (!validTime || !validId) throw invalidCursor();
  return { updatedAt, threadId };
}
