import { ApprovalAnswers } from './approval-answers';

describe('ApprovalAnswers', () => {
  it('keeps an answer given before anything waits for the next wait', async () => {
    const answers = new ApprovalAnswers();
    answers.give('reject');
    expect(await answers.next(1_000)).toEqual({ answer: 'reject', by: 'schedule' });
  });

  it('wakes a wait when the schedule answers', async () => {
    const answers = new ApprovalAnswers();
    const waiting = answers.next(5_000);
    answers.give('approve');
    expect(await waiting).toEqual({ answer: 'approve', by: 'schedule' });
  });

  it('approves on its own once released', async () => {
    const answers = new ApprovalAnswers();
    const waiting = answers.next(5_000);
    answers.release();
    expect(await waiting).toEqual({ answer: 'approve', by: 'user' });
  });

  it('approves on its own when no answer comes before the deadline', async () => {
    expect(await new ApprovalAnswers().next(10)).toEqual({ answer: 'approve', by: 'user' });
  });
});
