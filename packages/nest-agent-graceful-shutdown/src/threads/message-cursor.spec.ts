import { InvalidThreadListQueryError } from '../errors/invalid-thread-list-query.error.js';
import { encodeThreadCursor } from './thread-cursor.js';
import { decodeMessageCursor, encodeMessageCursor } from './message-cursor.js';

describe('message cursors', () => {
  it('gives back the seq it was made from', () => {
    expect(decodeMessageCursor(encodeMessageCursor(99))).toBe(99);
  });

  it('is made of URL-safe characters only', () => {
    expect(encodeMessageCursor(123_456)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['an empty string', ''],
    ['characters outside base64url', 'abc+/=='],
    ['base64url that is not JSON', Buffer.from('not json').toString('base64url')],
    [
      'a thread-list cursor',
      encodeThreadCursor({ updatedAt: '2025-01-02T03:04:05.000Z', threadId: 't1' }),
    ],
    ['a negative seq', Buffer.from('["m",-1]').toString('base64url')],
    ['a fractional seq', Buffer.from('["m",1.5]').toString('base64url')],
    ['a string longer than any cursor', 'a'.repeat(100)],
  ])('refuses %s with a 400 naming the cursor', (_, cursor) => {
    expect(() => decodeMessageCursor(cursor)).toThrow(InvalidThreadListQueryError);
    expect(() => decodeMessageCursor(cursor)).toThrow(/^cursor: /);
  });
});
