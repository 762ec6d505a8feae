import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { PendingToolCall } from '../agent/run-outcome.js';
import type { ToolCallRecord } from '../contracts/session-records.js';
import type { InterruptedState } from '../contracts/interrupted-state.js';
import { findDanglingToolCalls } from './dangling-tool-calls.js';
import { NOT_COMPLETED_RESULT, OUTCOME_UNKNOWN_RESULT } from './resume-message.js';
import { planResume } from './resume-planner.js';

const call = (id: string, name = 'search'): ToolCall => ({ id, name, arguments: `{"q":"${id}"}` });
const user = (id: string): AgentMessage => ({ id, role: 'user', content: 'go' });
const asks = (id: string, ...toolCalls: ToolCall[]): AgentMessage => ({
  id,
  role: 'assistant',
  content: '',
  toolCalls,
});
const result = (call: ToolCall): AgentMessage => ({
  id: `result-${call.id}`,
  role: 'tool',
  content: 'ok',
  toolCallId: call.id,
});

function record(
  of: ToolCall,
  status: ToolCallRecord['status'],
  result: string | null = null,
): ToolCallRecord {
  return {
    threadId: 't1',
    toolCallId: of.id,
    runKey: 'key-1',
    toolName: of.name,
    arguments: of.arguments,
    status,
    result,
    startedAt: '2025-01-02T03:04:00.000Z',
    finishedAt: status === 'finished' ? '2025-01-02T03:04:01.000Z' : null,
  };
}

function marker(
  pending: PendingToolCall[],
  overrides: Partial<InterruptedState> = {},
): InterruptedState {
  return {
    reason: 'shutdown',
    interruptedAt: '2025-01-02T03:04:05.000Z',
    runId: 'run-7',
    phase: 'acting',
    iteration: 2,
    pendingToolCalls: pending,
    ...overrides,
  };
}

describe('findDanglingToolCalls', () => {
  it('returns the calls of the last assistant message that have no result', () => {
    const [a, b] = [call('a'), call('b')];

    expect(findDanglingToolCalls([user('u1'), asks('m1', a, b), result(a)])).toEqual([b]);
  });

  it('ignores unanswered calls of earlier assistant messages', () => {
    const [old, a] = [call('old'), call('a')];
    const history = [user('u1'), asks('m1', old), user('u2'), asks('m2', a), result(a)];

    expect(findDanglingToolCalls(history)).toEqual([]);
  });

  it('finds nothing in a history without tool calls', () => {
    expect(
      findDanglingToolCalls([user('u1'), { id: 'm1', role: 'assistant', content: 'hi' }]),
    ).toEqual([]);
  });
});

describe('planResume after an interruption', () => {
  it('runs the calls the marker says had not started', () => {
    const [a, b] = [call('a'), call('b')];
    const history = [user('u1'), asks('m1', a, b)];

    const plan = planResume(
      history,
      marker([
        { ...a, started: false },
        { ...b, started: false },
      ]),
    );

    expect(plan.toRun).toEqual([a, b]);
    expect(plan.resolvedResults).toEqual([]);
  });

  it('answers a call that had started as interrupted with its outcome unknown', () => {
    const [a, b] = [call('a'), call('b')];
    const history = [user('u1'), asks('m1', a, b)];

    const plan = planResume(
      history,
      marker([
        { ...a, started: true },
        { ...b, started: false },
      ]),
    );

    expect(plan.toRun).toEqual([b]);
    expect(plan.resolvedResults).toEqual([
      { id: expect.any(String), role: 'tool', toolCallId: 'a', content: OUTCOME_UNKNOWN_RESULT },
    ]);
    expect(OUTCOME_UNKNOWN_RESULT).toMatch(/^interrupted, outcome unknown/);
  });

  it('runs a started call again when its tool is idempotent', () => {
    const a = call('a', 'lookup');
    const history = [user('u1'), asks('m1', a)];

    const plan = planResume(history, marker([{ ...a, started: true }]), {
      isIdempotent: (name) => name === 'lookup',
    });

    expect(plan.toRun).toEqual([a]);
    expect(plan.resolvedResults).toEqual([]);
  });

  it('runs a dangling call that neither a record nor the marker shows as started (a crash before the tool began)', () => {
    const a = call('a');

    const plan = planResume([user('u1'), asks('m1', a)], marker([], { reason: 'crash' }));

    expect(plan.toRun).toEqual([a]);
    expect(plan.resolvedResults).toEqual([]);
  });

  it('answers a call recorded as started without a result as of unknown outcome', () => {
    const a = call('a');

    const plan = planResume([user('u1'), asks('m1', a)], marker([], { reason: 'crash' }), {
      toolCalls: [record(a, 'started')],
    });

    expect(plan.toRun).toEqual([]);
    expect(plan.resolvedResults.map((m) => [m.toolCallId, m.content])).toEqual([
      ['a', OUTCOME_UNKNOWN_RESULT],
    ]);
  });

  it('runs a call recorded as started again when its tool is idempotent', () => {
    const a = call('a', 'lookup');

    const plan = planResume([user('u1'), asks('m1', a)], marker([], { reason: 'crash' }), {
      toolCalls: [record(a, 'started')],
      isIdempotent: (name) => name === 'lookup',
    });

    expect(plan.toRun).toEqual([a]);
  });

  it('uses the recorded result of a finished call instead of running it again, even for an idempotent tool', () => {
    const a = call('a', 'lookup');

    const plan = planResume([user('u1'), asks('m1', a)], marker([{ ...a, started: true }]), {
      toolCalls: [record(a, 'finished', 'recorded answer')],
      isIdempotent: () => true,
    });

    expect(plan.toRun).toEqual([]);
    expect(plan.resolvedResults.map((m) => [m.toolCallId, m.content])).toEqual([
      ['a', 'recorded answer'],
    ]);
  });

  it('gives every resolved result a distinct message id', () => {
    const [a, b] = [call('a'), call('b')];

    const plan = planResume(
      [user('u1'), asks('m1', a, b)],
      marker([
        { ...a, started: true },
        { ...b, started: true },
      ]),
    );

    expect(new Set(plan.resolvedResults.map((m) => m.id)).size).toBe(2);
  });

  it('writes a system message that states when, why, in which phase and what was pending', () => {
    const [a, b] = [call('a'), call('b')];
    const history = [user('u1'), asks('m1', a, b)];

    const plan = planResume(
      history,
      marker([
        { ...a, started: true },
        { ...b, started: false },
      ]),
    );

    expect(plan.resumeMessage).toMatchObject({ role: 'system', id: expect.any(String) });
    const text = plan.resumeMessage?.content ?? '';
    expect(text).toContain('2025-01-02T03:04:05.000Z');
    expect(text).toContain('run-7');
    expect(text).toMatch(/shut down/);
    expect(text).toContain('acting phase');
    expect(text).toContain('iteration 2');
    expect(text).toContain('search({"q":"a"}) [a]');
    expect(text).toContain('search({"q":"b"}) [b]');
    expect(text).toMatch(/do not repeat finished work/);
  });

  it('says so in the resume message when no tool call was pending', () => {
    const plan = planResume(
      [user('u1'), { id: 'm1', role: 'assistant', content: 'thinking' }],
      marker([], { phase: 'reasoning' }),
    );

    expect(plan.resumeMessage?.content).toContain('reasoning phase');
    expect(plan.resumeMessage?.content).toContain('No tool call was pending');
  });
});

describe('planResume without a marker', () => {
  it('answers dangling calls as not completed and runs none of them', () => {
    const [a, b] = [call('a', 'lookup'), call('b')];

    const plan = planResume([user('u1'), asks('m1', a, b)], null, { isIdempotent: () => true });

    expect(plan.toRun).toEqual([]);
    expect(plan.resolvedResults.map((m) => [m.toolCallId, m.content])).toEqual([
      ['a', NOT_COMPLETED_RESULT],
      ['b', NOT_COMPLETED_RESULT],
    ]);
  });

  it('makes no resume message, since a cancel is not an interruption', () => {
    const plan = planResume([user('u1'), asks('m1', call('a'))], null);

    expect(plan.resumeMessage).toBeNull();
  });

  it('makes an empty plan for a history with every call answered', () => {
    const a = call('a');

    expect(planResume([user('u1'), asks('m1', a), result(a)], null)).toEqual({
      resolvedResults: [],
      toRun: [],
      notRun: [],
      resumeMessage: null,
    });
  });
});

describe('planResume after an answer cut off mid-stream', () => {
  it('tells the model in the resume message that its last answer was cut off', () => {
    const cut: AgentMessage = {
      id: 'm1',
      role: 'assistant',
      content: 'The answer is',
      truncated: true,
    };

    const plan = planResume([user('u1'), cut], marker([], { phase: 'reasoning' }));

    expect(plan.resumeMessage?.content).toMatch(/last answer above was cut off/);
  });

  it('says nothing of a cut-off answer when the last answer was complete', () => {
    const plan = planResume(
      [user('u1'), { id: 'm1', role: 'assistant', content: 'done' }],
      marker([], { phase: 'reasoning' }),
    );

    expect(plan.resumeMessage?.content).not.toMatch(/cut off/);
  });
});
