import { RunTrace } from './run-trace';
import type { TappedConnection, TappedFrame } from './stream-tap';

/** A frame of the run's log (with an id) or a handover notice (without), arriving at `atMs`. */
const event = (id: number, atMs: number): TappedFrame => ({
  id,
  type: 'STEP_STARTED',
  fingerprint: `STEP_STARTED:${id}`,
  atMs,
});
const notice = (atMs: number): TappedFrame => ({
  type: 'CUSTOM',
  name: 'handover',
  fingerprint: 'CUSTOM:handover',
  atMs,
});

function connection(
  method: 'POST' | 'GET',
  frames: TappedFrame[],
  status = 200,
  refusal?: string,
): TappedConnection {
  return {
    method,
    url: 'http://lb',
    openedAtMs: 0,
    status,
    frames,
    ...(refusal ? { refusal } : {}),
  };
}

function trace(...connections: TappedConnection[]): RunTrace {
  const run = new RunTrace('t-1', 'r-1');
  run.connections.push(...connections);
  return run;
}

describe('RunTrace', () => {
  it('measures a handover gap from the last event before the notice to the first event after it', () => {
    const run = trace(
      connection('POST', [event(1, 0), event(2, 100), notice(150)]),
      connection('GET', [event(3, 400), event(4, 450)]),
    );

    expect(run.handoverGaps()).toEqual([
      { gapMs: 300, afterNoticeMs: 250, notices: 1, fromMs: 100, firstNoticeAtMs: 150, toMs: 400 },
    ]);
    expect(run.receivedIds()).toEqual([1, 2, 3, 4]);
  });

  it('counts notices back to back, with no event between them, as one gap', () => {
    const run = trace(
      connection('POST', [event(1, 0), notice(50)]),
      connection('GET', [notice(300)]),
      connection('GET', [event(2, 500)]),
    );

    expect(run.handoverGaps()).toEqual([
      { gapMs: 500, afterNoticeMs: 200, notices: 2, fromMs: 0, firstNoticeAtMs: 50, toMs: 500 },
    ]);
  });

  it('keeps a repeated id twice, for the audit to find', () => {
    const run = trace(
      connection('POST', [event(1, 0), event(2, 10), notice(20)]),
      connection('GET', [event(2, 30), event(3, 40)]),
    );

    expect(run.receivedIds()).toEqual([1, 2, 2, 3]);
  });

  it('counts as misrouted only POSTs refused SHUTTING_DOWN or 502/504 before any event of the run', () => {
    const shuttingDown = connection('POST', [], 503, '{"statusCode":503,"code":"SHUTTING_DOWN"}');
    const storeDown = connection('POST', [], 503, '{"statusCode":503,"code":"STORE_UNAVAILABLE"}');

    expect(
      trace(
        shuttingDown,
        connection('POST', [], 502),
        connection('POST', [event(1, 0)]),
      ).misroutedPosts(),
    ).toBe(2);
    expect(trace(storeDown, connection('POST', [event(1, 0)])).misroutedPosts()).toBe(0);
    expect(trace(connection('POST', [event(1, 0), notice(5)]), shuttingDown).misroutedPosts()).toBe(
      0,
    );
  });
});
