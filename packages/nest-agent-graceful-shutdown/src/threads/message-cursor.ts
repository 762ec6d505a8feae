import { InvalidThreadListQueryError } from '../errors/invalid-thread-list-query.error.js';

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
  const refuse = () =>
    new InvalidThreadListQueryError('cursor', 'not a cursor this service gave; pass the nextCursor of the previous page unchanged, or omit it');
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw refuse();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || parsed[0] !== 'm') throw refuse();
  const seq: unknown = parsed[1];
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) throw refuse();
  return seq;
}
