import { InvalidRunInputError } from '../errors/invalid-run-input.error.js';
import { isValidId, parseRunInput } from './run-input.js';

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
  it.each(['t1', 'thread-1', 'a.b', '...', '.hidden', 'x:y_z', 'a'.repeat(128)])('accepts %p', (id) => {
    expect(isValidId(id)).toBe(true);
  });

  it.each(['.', '..', '', 'a b', 'a/b', 'a'.repeat(129)])('refuses %p', (id) => {
    expect(isValidId(id)).toBe(false);
  });
});

describe('parseRunInput', () => {
  it('reads a valid input', () => {
    expect(parseRunInput(input('thread-1'))).toMatchObject({ threadId: 'thread-1', runId: 'run-1', userMessages: [{ id: 'm1', content: 'hi' }] });
  });

  it.each(['.', '..'])('refuses the threadId %p, naming the field', (threadId) => {
    expect(() => parseRunInput(input(threadId))).toThrow(InvalidRunInputError);
    expect(() => parseRunInput(input(threadId))).toThrow(/threadId/);
  });

  it.each(['.', '..'])('refuses the runId %p, naming the field', (runId) => {
    expect(() => parseRunInput(input('thread-1', runId))).toThrow(/runId/);
  });
});
