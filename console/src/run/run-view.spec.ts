import { EMPTY_RUN, runReducer, type RunAction, type RunView } from './run-view';

const event = (type: string, fields: Record<string, unknown> = {}): RunAction => ({
  type: 'event',
  event: { type, ...fields },
});
const play = (...actions: RunAction[]): RunView => actions.reduce(runReducer, EMPTY_RUN);

/** A demo round as the service streams it: reasoning asks for the tool, acting runs it. */
const round = (step: number): RunAction[] => [
  event('STEP_STARTED', { stepName: 'reasoning' }),
  event('TOOL_CALL_START', { toolCallId: `c${step}`, toolCallName: 'demo_step' }),
  event('TOOL_CALL_ARGS', { toolCallId: `c${step}`, delta: `{"step":${step}}` }),
  event('TOOL_CALL_END', { toolCallId: `c${step}` }),
  event('STEP_FINISHED', { stepName: 'reasoning' }),
  event('STEP_STARTED', { stepName: 'acting' }),
  event('TOOL_CALL_RESULT', { toolCallId: `c${step}`, content: `step ${step} done` }),
  event('STEP_FINISHED', { stepName: 'acting' }),
];

describe('runReducer', () => {
  it('reads running from the start, each step with its tool call and result, and idle once finished', () => {
    const running = play({ type: 'start' }, event('RUN_STARTED'), ...round(1));
    const finished = runReducer(running, event('RUN_FINISHED'));

    expect(running.status).toBe('running');
    expect(running.steps.map((step) => [step.kind, step.done, step.toolCallIds])).toEqual([
      ['reasoning', true, ['c1']],
      ['acting', true, ['c1']],
    ]);
    expect(running.toolCalls.c1).toEqual({
      id: 'c1',
      name: 'demo_step',
      args: '{"step":1}',
      result: 'step 1 done',
    });
    expect([finished.status, finished.outcome]).toEqual(['idle', 'Finished.']);
  });

  it('gathers the streamed answer into its step', () => {
    const view = play(
      { type: 'start' },
      event('STEP_STARTED', { stepName: 'reasoning' }),
      event('TEXT_MESSAGE_CONTENT', { delta: 'All ' }),
      event('TEXT_MESSAGE_CONTENT', { delta: 'done' }),
    );

    expect(view.steps[0].text).toBe('All done');
  });

  it('reads awaiting_approval and keeps the interrupts to answer when the run pauses for approval', () => {
    const interrupts = [
      {
        id: 'approve:c1',
        reason: 'tool_approval',
        toolCallId: 'c1',
        message: 'Approve demo_step?',
      },
    ];

    const view = play(
      { type: 'start' },
      ...round(1).slice(0, 5),
      event('RUN_FINISHED', { outcome: { type: 'interrupt', interrupts } }),
    );

    expect(view.status).toBe('awaiting_approval');
    expect(view.approvals).toEqual([
      { id: 'approve:c1', toolCallId: 'c1', message: 'Approve demo_step?' },
    ]);
  });

  it('reads idle, saying why, after a run replaced by a newer message', () => {
    const replaced = play(
      { type: 'start' },
      ...round(1),
      event('RUN_ERROR', { code: 'RUN_REPLACED', message: 'stopped for run-2' }),
    );
    expect([replaced.status, replaced.outcome]).toEqual([
      'idle',
      'Stopped: a newer message replaced the run.',
    ]);
  });

  it('reads idle after a user stop', () => {
    expect(
      play({ type: 'start' }, event('RUN_ERROR', { code: 'RUN_CANCELED', message: 'canceled' }))
        .status,
    ).toBe('idle');
  });

  it('reads interrupted while a run stopped by a shutdown is resumed, marks the cut step, then running again with a reconnected notice', () => {
    const cut = play(
      { type: 'start' },
      ...round(1),
      event('STEP_STARTED', { stepName: 'reasoning' }),
      { type: 'reconnect', kind: 'interrupted', attempt: 1 },
    );
    const resumed = runReducer(cut, event('STEP_STARTED', { stepName: 'reasoning' }));

    expect([cut.status, cut.reconnecting, cut.steps.at(-1)?.cut]).toEqual([
      'interrupted',
      true,
      true,
    ]);
    expect([resumed.status, resumed.reconnecting]).toEqual(['running', false]);
    expect(resumed.notices.map((notice) => notice.kind)).toEqual(['interrupted', 'resumed']);
  });

  it('keeps one notice per kind in a row, updated to the latest attempt', () => {
    const view = play(
      { type: 'start' },
      { type: 'reconnect', kind: 'dropped', attempt: 1 },
      { type: 'reconnect', kind: 'dropped', attempt: 2 },
      { type: 'reconnect', kind: 'dropped', attempt: 3 },
    );

    expect(view.notices).toEqual([
      { kind: 'dropped', text: 'Connection lost: reconnecting… (attempt 3)' },
    ]);
  });

  it("gives the thread's status back to the service once the run is over, not while it runs", () => {
    const active = play({ type: 'start' }, { type: 'settled' });
    const over = play(
      { type: 'start' },
      event('RUN_FINISHED'),
      { type: 'ended' },
      { type: 'settled' },
    );

    expect([active.status, over.status]).toEqual(['running', undefined]);
  });
});
