import { eventFingerprint, tappingFetch, type TappedConnection } from './stream-tap';

const encoder = new TextEncoder();

/** A fetch answering with `chunks` as an event stream (or with `status` and no stream). */
function serving(
  chunks: string[],
  status = 200,
): (url: string, init: RequestInit) => Promise<Response> {
  return async () => {
    if (status !== 200)
      return new Response(JSON.stringify({ statusCode: status, code: 'SHUTTING_DOWN' }), {
        status,
      });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
}

describe('tappingFetch', () => {
  it('passes the body through unchanged and records each frame with its id, split across chunks or not', async () => {
    const chunks = [
      'id: 1\ndata: {"type":"RUN_STARTED"}\n\n: heartbeat\n\nid: 2\nda',
      'ta: {"type":"STEP_STARTED","stepName":"reasoning"}\n\n',
    ];
    chunks.push('data: {"type":"CUSTOM","name":"handover","value":{"lastEventId":2}}\n\n');
    const connections: TappedConnection[] = [];
    const response = await tappingFetch(
      (connection) => connections.push(connection),
      serving(chunks),
    )('http://lb/v1/runs', { method: 'POST' });

    expect(await response.text()).toBe(chunks.join(''));
    expect(connections).toHaveLength(1);
    expect(connections[0]).toMatchObject({ method: 'POST', url: 'http://lb/v1/runs', status: 200 });
    expect(
      connections[0].frames.map(({ id, type, fingerprint, noticeLastEventId }) => ({
        id,
        type,
        fingerprint,
        noticeLastEventId,
      })),
    ).toEqual([
      { id: 1, type: 'RUN_STARTED', fingerprint: 'RUN_STARTED:', noticeLastEventId: undefined },
      {
        id: 2,
        type: 'STEP_STARTED',
        fingerprint: 'STEP_STARTED:reasoning',
        noticeLastEventId: undefined,
      },
      { id: undefined, type: 'CUSTOM', fingerprint: 'CUSTOM:handover', noticeLastEventId: 2 },
    ]);
  });

  it("records a refusal's status and body, and leaves its body readable", async () => {
    const connections: TappedConnection[] = [];
    const response = await tappingFetch(
      (connection) => connections.push(connection),
      serving([], 503),
    )('http://lb/v1/runs', { method: 'POST' });

    expect(connections[0]).toMatchObject({ status: 503, frames: [] });
    expect(connections[0].refusal).toContain('"SHUTTING_DOWN"');
    expect(await response.json()).toEqual({ statusCode: 503, code: 'SHUTTING_DOWN' });
  });

  it('records a request that got no answer, and rethrows its error', async () => {
    const connections: TappedConnection[] = [];
    const failing = () =>
      Promise.reject(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }));

    await expect(
      tappingFetch((connection) => connections.push(connection), failing)('http://lb/v1/runs', {}),
    ).rejects.toThrow('fetch failed');
    expect(connections[0]).toMatchObject({ method: 'GET', error: 'Error: connect ECONNREFUSED' });
    expect(connections[0].status).toBeUndefined();
  });
});

describe('eventFingerprint', () => {
  it('tells events apart by type, subject and text delta', () => {
    expect(eventFingerprint({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm-1', delta: 'Hi' })).toBe(
      'TEXT_MESSAGE_CONTENT:m-1:Hi',
    );
    expect(eventFingerprint({ type: 'TOOL_CALL_START', toolCallId: 'c-1' })).toBe(
      'TOOL_CALL_START:c-1',
    );
    expect(eventFingerprint({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' })).toBe(
      'RUN_ERROR:RUN_INTERRUPTED',
    );
  });
});
