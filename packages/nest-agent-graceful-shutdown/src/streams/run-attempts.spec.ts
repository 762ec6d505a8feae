import { EventType, type BaseEvent } from '@ag-ui/core';
import { readAsOneRun } from './run-attempts.js';

const startedAt = (id: number) => ({
  id,
  event: { type: EventType.RUN_STARTED, threadId: 't1', runId: 'r1' } as BaseEvent,
});
const interruptedAt = (id: number) => ({
  id,
  event: { type: EventType.RUN_ERROR, code: 'RUN_INTERRUPTED', message: 'retry' } as BaseEvent,
});

describe('readAsOneRun', () => {
  it('keeps the RUN_STARTED of event 1: the run starts there', () => {
    expect(readAsOneRun(startedAt(1), false)).toEqual(startedAt(1));
  });

  it('reads a later RUN_STARTED as a run_resumed notice under the same id', () => {
    expect(readAsOneRun(startedAt(7), false)).toEqual({
      id: 7,
      event: {
        type: EventType.CUSTOM,
        name: 'run_resumed',
        value: { threadId: 't1', runId: 'r1' },
      },
    });
  });

  it('reads a terminal event that the log goes on after as a run_interrupted notice with its code and message', () => {
    expect(readAsOneRun(interruptedAt(6), true)).toEqual({
      id: 6,
      event: {
        type: EventType.CUSTOM,
        name: 'run_interrupted',
        value: { code: 'RUN_INTERRUPTED', message: 'retry' },
      },
    });
  });

  it('keeps the last terminal event of the log as it is', () => {
    expect(readAsOneRun(interruptedAt(6), false)).toEqual(interruptedAt(6));
  });
});
