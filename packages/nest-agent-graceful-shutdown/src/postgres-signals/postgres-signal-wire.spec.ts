import { NOTIFY_PAYLOAD_LIMIT_BYTES, PostgresSignalWire } from './postgres-signal-wire.js';

const wire = new PostgresSignalWire('agent_');

describe('PostgresSignalWire', () => {
  it('names three channels under its prefix', () => {
    expect(wire.channels).toEqual(['agent_cancel', 'agent_run_ended', 'agent_log']);
  });

  it('carries each signal as ids only, and reads it back', () => {
    const cancel = { threadId: 't:1', runId: 'r"1', requestedAt: 1_700_000_000_000 };
    const ended = {
      threadId: 't1',
      runId: 'r1',
      status: 'canceled',
      stopReason: 'canceled',
    } as const;

    expect(wire.decode('agent_cancel', wire.encodeCancel(cancel))).toEqual({
      kind: 'cancel',
      signal: cancel,
    });
    expect(wire.decode('agent_run_ended', wire.encodeRunEnded(ended))).toEqual({
      kind: 'run-ended',
      signal: ended,
    });
    expect(
      wire.decode('agent_log', wire.encodeLogAppended({ threadId: 't1', runId: 'r1', lastId: 7 })),
    ).toEqual({
      kind: 'log',
      signal: { threadId: 't1', runId: 'r1', lastId: 7 },
    });
    expect(wire.decode('agent_cancel', wire.encodeResync())).toEqual({ kind: 'resync' });
  });

  it('ignores a payload it cannot read', () => {
    expect(wire.decode('agent_cancel', 'not json')).toBeUndefined();
    expect(
      wire.decode('agent_run_ended', JSON.stringify({ threadId: 't1', runId: 'r1' })),
    ).toBeUndefined();
    expect(
      wire.decode('agent_log', JSON.stringify({ threadId: 't1', runId: 'r1', lastId: '7' })),
    ).toBeUndefined();
  });

  it("says whether a payload fits NOTIFY's limit, counting UTF-8 bytes", () => {
    expect(wire.fits('a'.repeat(NOTIFY_PAYLOAD_LIMIT_BYTES))).toBe(true);
    expect(wire.fits('a'.repeat(NOTIFY_PAYLOAD_LIMIT_BYTES + 1))).toBe(false);
    expect(wire.fits('é'.repeat(4_000))).toBe(false);
  });
});
