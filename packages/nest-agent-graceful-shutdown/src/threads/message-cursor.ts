import { decodeCursorPair, invalidCursor } from './page-cursor.js';

// Longest cursor accepted, in characters: a message position needs far fewer.
const MAX_CURSOR_LENGTH = 64;

/**
 * The opaque `nextCursor` of a message page: the `seq` it follows, as base64url JSON. Clients
 * pass it back unchanged; its form may change between versions.
 *
 * @example
 * encodeMessageCursor(99); // 'WyJtIiw5OV0'
 */
export function encodeMessageCursor(afterSeq: number): string {
  return Buffer.from(JSON.stringify(['m', afterSeq])).toString('base64url');
}

/**
 * The `seq` a cursor from `encodeMessageCursor` holds.
 * @throws InvalidThreadListQueryError (400 `INVALID_CURSOR`) for anything else.
 */
export function decodeMessageCursor(cursor: string): number {
  const [tag, seq] = decodeCursorPair(cursor, MAX_CURSOR_LENGTH);
  if (tag !== 'm' || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0)
    throw invalidCursor();
  return seq;
}
