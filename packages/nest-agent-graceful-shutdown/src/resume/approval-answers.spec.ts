import type { ToolCall } from '../agent/agent-message.js';
import { InvalidRunInputError } from '../errors/invalid-run-input.error.js';
import { planApprovals, REJECTED_RESULT } from './approval-answers.js';
import { approvalInterruptId } from './approval-interrupts.js';

const call = (id: string, name = 'transfer'): ToolCall => ({
  id,
  name,
  arguments: `{"id":"${id}"}`,
});
const approve = (id: string, approved = true) => ({
  interruptId: approvalInterruptId(id),
  status: 'resolved' as const,
  payload: { approved },
});

describe('planApprovals', () => {
  const [a, b, free] = [call('a'), call('b'), call('free', 'lookup')];

  it('runs the approved calls and those that needed no approval, in their order', () => {
    const plan = planApprovals([a, free, b], [a, b], [approve('b'), approve('a')]);

    expect(plan.toRun).toEqual([a, free, b]);
    expect([...plan.approvedIds].sort()).toEqual(['a', 'b']);
    expect(plan.rejectedResults).toEqual([]);
  });

  it('answers a call rejected with approved false or with status cancelled as rejected, and does not run it', () => {
    const plan = planApprovals(
      [a, b],
      [a, b],
      [approve('a', false), { interruptId: approvalInterruptId('b'), status: 'cancelled' }],
    );

    expect(plan.toRun).toEqual([]);
    expect(plan.rejectedResults.map((m) => [m.toolCallId, m.role, m.content])).toEqual([
      ['a', 'tool', REJECTED_RESULT],
      ['b', 'tool', REJECTED_RESULT],
    ]);
  });

  it.each([
    ['an unknown interrupt id', [approve('a'), approve('zzz')], 'resume[1].interruptId'],
    [
      'an interrupt answered twice',
      [approve('a'), approve('a'), approve('b')],
      'resume[1].interruptId',
    ],
    ['a missing answer', [approve('a')], 'resume'],
    [
      'a resolved answer without approved',
      [
        { interruptId: approvalInterruptId('a'), status: 'resolved' as const, payload: {} },
        approve('b'),
      ],
      'resume[0].payload.approved',
    ],
  ])('refuses %s, naming the field', (_what, answers, field) => {
    let thrown: unknown;
    try {
      planApprovals([a, b], [a, b], answers);
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(InvalidRunInputError);
    expect((thrown as InvalidRunInputError).field).toBe(field);
  });
});
