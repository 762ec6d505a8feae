import { StopReason } from '../agent/stop-reason.js';
import { summarizeOutcome, terminalEvent } from './run-outcome-mapping.js';

const canceled = {
  stopReason: StopReason.Canceled,
  phase: 'acting' as const,
  iteration: 2,
  pendingToolCalls: [],
};

describe('summarizeOutcome', () => {
  it('ends a run a new run replaced canceled, with RUN_REPLACED naming the new run and the strategy', () => {
    const summary = summarizeOutcome(canceled, { runId: 'run-2', multitask: 'interrupt' });

    expect(summary).toMatchObject({
      status: 'canceled',
      errorCode: 'RUN_REPLACED',
      replacedBy: { runId: 'run-2', multitask: 'interrupt' },
    });
    expect(terminalEvent('t1', 'run-1', summary)).toEqual({
      type: 'RUN_ERROR',
      code: 'RUN_REPLACED',
      message:
        'the run was stopped for run run-2 of the same thread (multitask interrupt); messages so far are kept',
      replacedBy: { runId: 'run-2', multitask: 'interrupt' },
    });
  });

  it("keeps a user's cancel RUN_CANCELED, and a replacement named to a run that ended otherwise out of its end", () => {
    expect(terminalEvent('t1', 'run-1', summarizeOutcome(canceled))).toMatchObject({
      type: 'RUN_ERROR',
      code: 'RUN_CANCELED',
    });
    const completed = summarizeOutcome(
      { ...canceled, stopReason: StopReason.Completed },
      { runId: 'run-2', multitask: 'interrupt' },
    );
    expect(terminalEvent('t1', 'run-1', completed)).toEqual({
      type: 'RUN_FINISHED',
      threadId: 't1',
      runId: 'run-1',
    });
  });
});
