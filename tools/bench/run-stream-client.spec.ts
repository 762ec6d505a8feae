import { Agent, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openRunStream } from './run-stream-client';

describe('openRunStream', () => {
  let server: Server;
  let baseUrl: string;
  const agent = new Agent({ keepAlive: false });
  /** How the next requests are refused before one is served: each entry is a status and its Retry-After. */
  let refusals: { status: number; retryAfter?: string }[] = [];
  let requests = 0;
  /** Connections the client closed: with keep-alive off, once it has read a whole answer. */
  let closed = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests++;
      const refusal = refusals.shift();
      if (refusal) {
        res.writeHead(refusal.status, {
          'content-type': 'application/json',
          ...(refusal.retryAfter ? { 'retry-after': refusal.retryAfter } : {}),
        });
        return void res.end(`{"code":"REFUSED_${refusal.status}"}`);
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        'id: 1\ndata: {"type":"RUN_STARTED"}\n\nid: 2\ndata: {"type":"RUN_ERROR","code":"RUN_INTERRUPTED"}\n\n',
      );
    });
    server.on('connection', (socket) => socket.on('close', () => closed++));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(() => {
    refusals = [];
    requests = 0;
    closed = 0;
  });

  afterAll(async () => {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends a start refused with Retry-After (503, 429) again after that delay, and follows the stream it then gets', async () => {
    refusals = [
      { status: 503, retryAfter: '0' },
      { status: 429, retryAfter: '0' },
    ];
    const result = await openRunStream(baseUrl, agent, 't', {}, 3).done;
    expect(requests).toBe(3);
    expect(result).toEqual({
      status: 200,
      events: 2,
      terminal: { type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' },
    });
  });

  it('gives up after its retries with the last refusal', async () => {
    refusals = [
      { status: 503, retryAfter: '0' },
      { status: 503, retryAfter: '0' },
    ];
    const result = await openRunStream(baseUrl, agent, 't', {}, 1).done;
    expect(requests).toBe(2);
    expect(result).toEqual({ status: 503, events: 0, error: 'HTTP 503: {"code":"REFUSED_503"}' });
  });

  it('does not retry a refusal without Retry-After, nor one that is not 503 or 429', async () => {
    refusals = [{ status: 503 }];
    expect((await openRunStream(baseUrl, agent, 't', {}, 3).done).status).toBe(503);
    refusals = [{ status: 400, retryAfter: '0' }];
    expect((await openRunStream(baseUrl, agent, 't', {}, 3).done).status).toBe(400);
    expect(requests).toBe(2);
  });

  it('stops waiting to retry when aborted', async () => {
    refusals = [{ status: 503, retryAfter: '600' }];
    const stream = openRunStream(baseUrl, agent, 't', {}, 3);
    // The client has the whole refusal once it closed the connection: it waits 600 s from then.
    while (closed === 0) await new Promise((resolve) => setImmediate(resolve));
    stream.abort();
    const result = await stream.done;
    expect(result.status).toBe(503);
    expect(requests).toBe(1);
  });
});
