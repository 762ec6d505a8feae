import type { AgentMessage } from '../agent/agent-message.js';
import { ThreadTooLargeError } from '../errors/thread-too-large.error.js';
import { assertMessageLimits, resolveRunLimits } from './run-limits.js';

const user = (id: string, content: string): AgentMessage => ({ id, role: 'user', content });
const limits = resolveRunLimits({ maxThreadBytes: 10 });

describe('limits.maxThreadBytes', () => {
  it('admits new messages that bring the thread exactly to the limit', () => {
    expect(() =>
      assertMessageLimits(limits, 't1', [user('a', '12345')], [user('b', '12345')]),
    ).not.toThrow();
  });

  it('refuses new messages past the limit with a 413 THREAD_TOO_LARGE, counting UTF-8 bytes', () => {
    const error = (() => {
      try {
        assertMessageLimits(limits, 't1', [user('a', '12345')], [user('b', 'ééé')]);
      } catch (caught) {
        return caught;
      }
    })();

    expect(error).toBeInstanceOf(ThreadTooLargeError);
    expect(error).toMatchObject({
      code: 'THREAD_TOO_LARGE',
      storedBytes: 5,
      addedBytes: 6,
      limit: 10,
    });
    expect((error as ThreadTooLargeError).getStatus()).toBe(413);
  });

  it('counts tool call arguments of the stored history', () => {
    const call: AgentMessage = {
      id: 'a',
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'demo', arguments: '{"step":1}' }],
    };

    expect(() => assertMessageLimits(limits, 't1', [call], [user('b', 'x')])).toThrow(
      ThreadTooLargeError,
    );
  });

  it('never refuses a request that adds nothing, however large the thread', () => {
    expect(() => assertMessageLimits(limits, 't1', [user('a', 'x'.repeat(100))], [])).not.toThrow();
  });

  it('does not limit the size with the default 0', () => {
    expect(() =>
      assertMessageLimits(resolveRunLimits(), 't1', [user('a', 'x'.repeat(100))], [user('b', 'y')]),
    ).not.toThrow();
  });
});
