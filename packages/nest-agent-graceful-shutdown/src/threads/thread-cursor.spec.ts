import { InvalidThreadListQueryError } from '../errors/invalid-thread-list-query.error.js';
import { decodeThreadCursor, encodeThreadCursor } from './thread-cursor.js';

const position = { updatedAt: '2025-01-02T03:04:05.000Z', threadId: 'thread:1.a_b-c' };

describe('thread cursors', () => {
  it('gives back the position it was made from', () => {
    expect(decodeThreadCursor(encodeThreadCursor(position))).toEqual(position);
  });

  it('is made of URL-safe characters only', () => {
    expect(encodeThreadCursor(position)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['an empty string', ''],
    ['characters outside base64url', 'abc+/=='],
    ['base64url that is not JSON', Buffer.from('not json').toString('base64url')],
    ['JSON that is not a pair', Buffer.from('{"a":1}').toString('base64url')],
    ['a pair whose time does not parse', Buffer.from('["yesterday","t1"]').toString('base64url')],
    [
      'a pair with an empty thread id',
      Buffer.from('["2025-01-02T03:04:05.000Z",""]').toString('base64url'),
    ],
    ['a string longer than any cursor', 'a'.repeat(600)],
    [
      'a pair whose thread id has U+0000',
      Buffer.from('["2025-01-02T03:04:05.000Z","t\\u0000"]').toString('base64url'),
    ],
    [
      'a pair whose thread id breaks the id rule',
      Buffer.from('["2025-01-02T03:04:05.000Z","a/b"]').toString('base64url'),
    ],
    [
      'a pair whose time has a lone surrogate',
      Buffer.from('["2025-01-02T03:04:05.000Z\\ud800","t1"]').toString('base64url'),
    ],
  ])('refuses %s with a 400 naming the cursor', (_, cursor) => {
    let error: unknown;
    try {
      decodeThreadCursor(cursor);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidThreadListQueryError);
    expect(error).toMatchObject({
      code: 'INVALID_CURSOR',
      field: 'cursor',
      message: expect.stringMatching(/^cursor: /),
    });
    expect((error as InvalidThreadListQueryError).getStatus()).toBe(400);
  });
});
