import { cancelOf, encodeCancelPayload, parseSignalPayload } from './signal-payloads.js';

const decode = (payload: string) => cancelOf(parseSignalPayload(payload)!);

describe('cancel payloads', () => {
  it('carry a replacement across, and leave it out of a plain cancel', () => {
    const replaced = {
      threadId: 't:1',
      runId: 'r1',
      requestedAt: 5,
      replacedBy: { runId: 'r2', multitask: 'interrupt' as const },
    };
    expect(decode(encodeCancelPayload(replaced))).toEqual(replaced);
    expect(encodeCancelPayload({ threadId: 't', runId: 'r' })).toBe('{"threadId":"t","runId":"r"}');
  });

  it('read a replacement this version does not know as a plain cancel, keeping the stop', () => {
    expect(
      decode('{"threadId":"t","runId":"r","replacedBy":{"runId":"r2","multitask":"merge"}}'),
    ).toEqual({ threadId: 't', runId: 'r' });
    expect(decode('{"threadId":"t","runId":"r","replacedBy":"r2"}')).toEqual({
      threadId: 't',
      runId: 'r',
    });
  });
});
