import { InvalidRunInputError } from '../errors/invalid-run-input.error.js';
import { checkRunInput, isValidId, parseRunInput } from './run-input.js';

const input = (threadId: string, runId = 'run-1') => ({
  threadId,
  runId,
  state: {},
  tools: [],
  context: [],
  forwardedProps: {},
  messages: [{ id: 'm1', role: 'user', content: 'hi' }],
});

describe('isValidId', () => {
  it.each(['t1', 'thread-1', 'a.b', '...', '.hidden', 'x:y_z', 'a'.repeat(128)])(
    'accepts %p',
    (id) => {
      expect(isValidId(id)).toBe(true);
    },
  );

  it.each(['.', '..', '', 'a b', 'a/b', 'a'.repeat(129)])('refuses %p', (id) => {
    expect(isValidId(id)).toBe(false);
  });
});

describe('parseRunInput', () => {
  it('reads a valid input', () => {
    expect(parseRunInput(input('thread-1'))).toMatchObject({
      threadId: 'thread-1',
      runId: 'run-1',
      userMessages: [{ id: 'm1', content: 'hi' }],
    });
  });

  it.each(['.', '..'])('refuses the threadId %p, naming the field', (threadId) => {
    expect(() => parseRunInput(input(threadId))).toThrow(InvalidRunInputError);
    expect(() => parseRunInput(input(threadId))).toThrow(/threadId/);
  });

  it.each(['.', '..'])('refuses the runId %p, naming the field', (runId) => {
    expect(() => parseRunInput(input('thread-1', runId))).toThrow(/runId/);
  });

  it.each(['', 'a b', 'a/b', '..', 'ü', 'm\u0000', 'm\ud800', 'a'.repeat(129)])(
    'refuses the message id %p, naming the field',
    (id) => {
      const body = { ...input('thread-1'), messages: [{ id, role: 'user', content: 'hi' }] };
      expect(() => parseRunInput(body)).toThrow(/^messages\[0\]\.id: must match/);
    },
  );

  it('keeps a message id at the edge of the rule as sent', () => {
    const id = 'Az09._:-'.repeat(16);
    const body = { ...input('thread-1'), messages: [{ id, role: 'user', content: 'hi' }] };
    expect(parseRunInput(body).userMessages).toEqual([{ id, content: 'hi' }]);
  });

  it('takes the ids of echoed assistant and tool messages as the stream sent them, bounded in size', () => {
    const call = { id: 'call 1/ü', type: 'function', function: { name: 'x', arguments: '{}' } };
    const echoes = [
      { id: 'a 1', role: 'assistant', content: '', toolCalls: [call] },
      { id: 't/1', role: 'tool', content: 'ok', toolCallId: 'call 1/ü' },
    ];
    expect(parseRunInput({ ...input('thread-1'), messages: echoes }).userMessages).toEqual([]);
    const long = {
      ...input('thread-1'),
      messages: [{ id: 'a'.repeat(129), role: 'assistant', content: '' }],
    };
    expect(() => parseRunInput(long)).toThrow(
      /^messages\[0\]\.id: must be a string of 1 to 128 characters/,
    );
  });

  it.each(['a\u0000b', 'a\ud800b', 'ab\ud83d', '\udc00x'])(
    'refuses the text %p, which a store would not hold as sent',
    (content) => {
      const body = { ...input('thread-1'), messages: [{ id: 'm1', role: 'user', content }] };
      expect(() => parseRunInput(body)).toThrow(
        /^messages\[0\]\.content: must not contain U\+0000/,
      );
      const parts = {
        ...input('thread-1'),
        messages: [{ id: 'm1', role: 'user', content: [{ type: 'text', text: content }] }],
      };
      expect(() => parseRunInput(parts)).toThrow(
        /^messages\[0\]\.content: must not contain U\+0000/,
      );
    },
  );

  it('keeps text with control characters, astral characters and paired surrogates as sent', () => {
    const content = '\u0001\t\n\u007f 漢字 👩‍👧 \u{10ffff} \ufeff\uffff';
    const body = { ...input('thread-1'), messages: [{ id: 'm1', role: 'user', content }] };
    expect(parseRunInput(body).userMessages).toEqual([{ id: 'm1', content }]);
  });
});

describe('approval answers', () => {
  const answering = (answer: Record<string, unknown>) => ({
    ...input('thread-1'),
    resume: [answer],
  });

  it('takes an answer whose interrupt id and payload every store holds as sent', () => {
    const answer = {
      interruptId: 'call_7Xk:1',
      status: 'resolved',
      payload: { note: 'ok 漢字', list: ['a', { b: 'c' }] },
    };
    expect(parseRunInput(answering(answer)).resume).toEqual([answer]);
  });

  it.each([
    [
      { interruptId: '', status: 'resolved' },
      /^resume\[0\]\.interruptId: must be a string of 1 to 128/,
    ],
    [
      { interruptId: 'x'.repeat(129), status: 'resolved' },
      /^resume\[0\]\.interruptId: must be a string of 1 to 128/,
    ],
    [
      { interruptId: 'call\u00001', status: 'resolved' },
      /^resume\[0\]\.interruptId: must not contain U\+0000/,
    ],
    [
      { interruptId: 'call-1', status: 'resolved', payload: { note: ['ok', 'a\ud800'] } },
      /^resume\[0\]\.payload\.note\[1\]: must not contain/,
    ],
    [
      { interruptId: 'call-1', status: 'resolved', payload: { 'k\u0000': 1 } },
      /^resume\[0\]\.payload: must not contain/,
    ],
  ])('refuses the answer %p, naming the field', (answer, message) => {
    expect(() => parseRunInput(answering(answer))).toThrow(message);
    expect(() =>
      checkRunInput({ threadId: 't1', runId: 'r1', userMessages: [], resume: [answer as never] }),
    ).toThrow(message);
  });
});

describe('checkRunInput', () => {
  it('refuses a caller-built message whose id or text a store would change, naming the field', () => {
    const run = (id: string, content: string) => ({
      threadId: 't1',
      runId: 'r1',
      userMessages: [{ id, content }],
      resume: [],
    });
    expect(() => checkRunInput(run('m 1', 'hi'))).toThrow(/^userMessages\[0\]\.id: must match/);
    expect(() => checkRunInput(run('m1', 'a\u0000'))).toThrow(
      /^userMessages\[0\]\.content: must not contain/,
    );
    expect(checkRunInput(run('m1', 'hi'))).toEqual(run('m1', 'hi'));
  });
});
