import { InvalidThreadListQueryError } from '../errors/invalid-thread-list-query.error.js';

/** The refusal of a cursor this service did not give (400 `INVALID_CURSOR`). */
export function invalidCursor(): InvalidThreadListQueryError {
  return new InvalidThreadListQueryError(
    'cursor',
    'not a cursor this service gave; pass the nextCursor of the previous page unchanged, or omit it',
  );
}

/**
 * The two values an opaque page cursor (base64url JSON of a pair) holds, unchecked: the thread
 * list's and the message page's decoders check each value themselves.
 * @throws InvalidThreadListQueryError (400 `INVALID_CURSOR`) for a cursor longer than
 * `maxLength`, not base64url, or not a JSON pair.
 */
export function decodeCursorPair(cursor: string, maxLength: number): [unknown, unknown] {
  if (cursor.length === 0 || cursor.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(cursor))
    throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalidCursor();
  return [parsed[0], parsed[1]];
}
