import { Agent, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openSseRequest } from './sse-request';

describe('openSseRequest', () => {
  let server: Server;
  let url: string;
  const agent = new Agent({ keepAlive: false });

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.headers.authorization !== 'Bearer t')
        return void res
          .writeHead(401, { 'content-type': 'application/json' })
          .end('{"code":"UNAUTHORIZED"}');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('id: 1\ndata: {"type":"RUN_STARTED"}\n\nid: 2\ndata: not json\n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('hands over each frame with its id and ends without an error', async () => {
    const frames: [string, string | undefined][] = [];
    const end = await openSseRequest(url, { method: 'GET', agent, token: 't' }, (data, id) =>
      frames.push([data, id]),
    ).done;
    expect(frames).toEqual([
      ['{"type":"RUN_STARTED"}', '1'],
      ['not json', '2'],
    ]);
    expect(end).toEqual({ status: 200 });
  });

  it('ends with the refusal body as the error', async () => {
    const end = await openSseRequest(url, { method: 'GET', agent, token: 'wrong' }, () => undefined)
      .done;
    expect(end).toEqual({ status: 401, error: 'HTTP 401: {"code":"UNAUTHORIZED"}' });
  });

  it('ends with the error of a callback that throws, instead of throwing it in the socket callback', async () => {
    const end = await openSseRequest(url, { method: 'GET', agent, token: 't' }, (data) =>
      JSON.parse(data),
    ).done;
    expect(end.status).toBe(200);
    expect(end.error).toMatch(/^reading the stream: .*JSON/);
  });
});
