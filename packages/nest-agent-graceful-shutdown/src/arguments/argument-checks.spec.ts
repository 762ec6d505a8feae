import { InvalidEventIdError } from '../errors/invalid-event-id.error.js';
import { InvalidIdError } from '../errors/invalid-id.error.js';
import { InvalidWaitError } from '../errors/invalid-wait.error.js';
import {
  checkEventId,
  checkId,
  checkOptionalId,
  checkUserId,
  checkWaitMs,
  MAX_USER_ID_LENGTH,
  checkMultitask,
} from './argument-checks.js';

describe('checkEventId', () => {
  it.each([0, 1, 42, Number.MAX_SAFE_INTEGER])('accepts the event id %p', (id) => {
    expect(checkEventId('lastEventId', id)).toBe(id);
  });

  it('accepts an unset id: the stream starts from its first event', () => {
    expect(checkEventId('lastEventId', undefined)).toBeUndefined();
  });

  it.each([NaN, -1, 1.5, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 1, '7', null, {}, 7n])(
    'refuses %p with a 400 naming the field',
    (value) => {
      expect(() => checkEventId('Last-Event-ID', value)).toThrow(InvalidEventIdError);
      expect(() => checkEventId('Last-Event-ID', value)).toThrow(
        /^Last-Event-ID: must be a non-negative integer/,
      );
    },
  );

  it('quotes a string it refuses, cut short', () => {
    expect(() => checkEventId('lastEventId', 'x'.repeat(100))).toThrow(
      `(got "${'x'.repeat(32)}…")`,
    );
  });
});

describe('checkId and checkOptionalId', () => {
  it('accepts a thread or run id and returns it', () => {
    expect(checkId('threadId', 'thread-1')).toBe('thread-1');
    expect(checkOptionalId('runId', undefined)).toBeUndefined();
  });

  it.each(['', '.', '..', 'a b', 'a/b', 'x'.repeat(129), 7, null])(
    'refuses %p as InvalidIdError (400 INVALID_ID) naming the field',
    (value) => {
      expect(() => checkOptionalId('runId', value)).toThrow(InvalidIdError);
      expect(() => checkId('runId', value)).toThrow(/^runId: must match/);
    },
  );
});

describe('checkUserId', () => {
  it('accepts a string of 1 to 256 characters in any script, as the stores hold it', () => {
    expect(checkUserId('auth0|user 1')).toBe('auth0|user 1');
    expect(checkUserId('ü@例え.jp 👩‍👧')).toBe('ü@例え.jp 👩‍👧');
    expect(checkUserId('u'.repeat(MAX_USER_ID_LENGTH))).toHaveLength(MAX_USER_ID_LENGTH);
  });

  it.each([
    '',
    ' ',
    ' alice',
    'alice\t',
    'al\u0000ice',
    'al\nice',
    'al\ud800ice',
    'u'.repeat(MAX_USER_ID_LENGTH + 1),
    undefined,
    7,
  ])('refuses %p, naming userId', (value) => {
    expect(() => checkUserId(value)).toThrow(
      /^userId: must be 1 to 256 characters, without leading or trailing blanks/,
    );
  });
});

describe('checkWaitMs', () => {
  it('accepts an unset wait and a whole number of milliseconds up to the maximum', () => {
    expect(checkWaitMs(undefined)).toBeUndefined();
    expect(checkWaitMs(0)).toBe(0);
    expect(checkWaitMs(30_000, 30_000)).toBe(30_000);
  });

  it.each([NaN, -1, 2.5, 30_001, '100'])(
    'refuses %p with InvalidWaitError (400 INVALID_WAIT)',
    (value) => {
      expect(() => checkWaitMs(value, 30_000)).toThrow(InvalidWaitError);
      expect(() => checkWaitMs(value, 30_000)).toThrow(
        'waitMs: must be an integer from 0 to 30000',
      );
    },
  );
});

describe('checkMultitask', () => {
  it('accepts an unset strategy and each one this version serves', () => {
    expect(checkMultitask(undefined)).toBeUndefined();
    expect(checkMultitask('reject')).toBe('reject');
    expect(checkMultitask('interrupt')).toBe('interrupt');
    expect(checkMultitask('rollback')).toBe('rollback');
    expect(checkMultitask('enqueue')).toBe('enqueue');
  });

  it.each(['queue', 'Rollback', 'sometimes', ['interrupt', 'reject'], 3])(
    'refuses %p with 400 INVALID_MULTITASK naming the field',
    (value) => {
      expect(() => checkMultitask(value)).toThrow(
        expect.objectContaining({
          code: 'INVALID_MULTITASK',
          message: expect.stringMatching(
            /^multitask: must be one of reject, enqueue, interrupt, rollback/,
          ),
        }),
      );
    },
  );
});
