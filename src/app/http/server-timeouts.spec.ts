import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerClientErrors, clientErrorResponse } from './client-error.handler';
import { applyServerTimeouts } from './server-timeouts';

/** Sends `head` and then one body byte every 50 ms until the server closes; resolves with all it answered. */
function trickle(server: Server, head: string): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    let answer = '';
    let drip: NodeJS.Timeout | undefined;
    // The drip starts once the head is written: a byte queued before a slow connect would go first.
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      drip = setInterval(() => socket.writable && socket.write('x'), 50);
    });
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      clearInterval(drip);
      resolve(answer);
    });
  });
}

describe('the HTTP server timeouts', () => {
  let server: Server;

  beforeEach(async () => {
    server = createServer((request, response) => {
      if (request.url === '/stream') {
        // A response longer than the request timeout, as a run's event stream is.
        response.writeHead(200, { 'Content-Type': 'text/event-stream' });
        const tick = setInterval(() => response.write(': tick\n\n'), 100);
        setTimeout(() => {
          clearInterval(tick);
          response.end();
        }, 1_000);
        return;
      }
      request.resume();
      request.on('end', () => response.end('ok'));
    });
    applyServerTimeouts(server, {
      headersTimeoutMs: 300,
      requestTimeoutMs: 500,
      keepAliveTimeoutMs: 1_000,
    });
    answerClientErrors(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sets Node’s timeouts from the configuration', () => {
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([
      300, 500, 1_000,
    ]);
  });

  it('answers a trickled body with 408 REQUEST_TIMEOUT in the API’s error format and closes', async () => {
    const answer = await trickle(
      server,
      'POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      statusCode: 408,
      code: 'REQUEST_TIMEOUT',
      message: expect.any(String),
    });
  });

  it('answers trickled headers with 408 too', async () => {
    const answer = await trickle(server, 'GET /x HTTP/1.1\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('lets a response outlive the request timeout', async () => {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/stream`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text.split(': tick').length - 1).toBeGreaterThan(5);
  });
});

describe('clientErrorResponse', () => {
  it('answers bad HTTP with 400 BAD_REQUEST and a body of its stated length', () => {
    const answer = clientErrorResponse('HPE_INVALID_METHOD');
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain(`Content-Length: ${Buffer.byteLength(body)}\r\n`);
    expect(JSON.parse(body)).toMatchObject({ statusCode: 400, code: 'BAD_REQUEST' });
  });

  it('answers oversized headers with 431', () => {
    expect(clientErrorResponse('HPE_HEADER_OVERFLOW')).toMatch(/^HTTP\/1\.1 431 /);
  });
});
