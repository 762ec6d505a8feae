import { InvalidEventIdError } from 'nest-agent-graceful-shutdown';
import { parseLastEventId } from './last-event-id';

describe('parseLastEventId', () => {
  it('reads the header before the query, and neither set as from the start', () => {
    expect(parseLastEventId('7', '9')).toBe(7);
    expect(parseLastEventId(undefined, '9')).toBe(9);
    expect(parseLastEventId(undefined, undefined)).toBeUndefined();
    expect(parseLastEventId('', undefined)).toBeUndefined();
  });

  it('reads the largest safe integer', () => {
    expect(parseLastEventId(String(Number.MAX_SAFE_INTEGER), undefined)).toBe(
      Number.MAX_SAFE_INTEGER,
    );
  });

  it.each(['abc', '-1', '1.5', '1e3', ' 1', '9007199254740992', '12345678901234567'])(
    'refuses the header %p with 400 INVALID_EVENT_ID naming Last-Event-ID',
    (header) => {
      expect(() => parseLastEventId(header, undefined)).toThrow(InvalidEventIdError);
      expect(() => parseLastEventId(header, undefined)).toThrow(
        /^Last-Event-ID: must be a non-negative integer/,
      );
    },
  );

  it('refuses a query value that is not one string of digits, naming lastEventId', () => {
    expect(() => parseLastEventId(undefined, 'abc')).toThrow(/^lastEventId: /);
    expect(() => parseLastEventId(undefined, ['1', '2'])).toThrow(/^lastEventId: /);
  });
});
