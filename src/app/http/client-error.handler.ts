import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** The answers to requests that never reached the application, in the API's error format. */
const ANSWERS: Readonly<
  Record<string, { statusCode: number; reason: string; code: string; message: string }>
> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    statusCode: 408,
    reason: 'Request Timeout',
    code: 'REQUEST_TIMEOUT',
    message:
      'the request did not arrive in time (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS)',
  },
  HPE_HEADER_OVERFLOW: {
    statusCode: 431,
    reason: 'Request Header Fields Too Large',
    code: 'HEADERS_TOO_LARGE',
    message: 'the request headers are too large',
  },
};

const BAD_REQUEST = {
  statusCode: 400,
  reason: 'Bad Request',
  code: 'BAD_REQUEST',
  message: 'the request is not valid HTTP',
};

/** Writes the HTTP answer to a request Node refused before the application saw it. */
export function clientErrorResponse(errorCode: string | undefined): string {
  const answer = (errorCode && ANSWERS[errorCode]) || BAD_REQUEST;
  const body = JSON.stringify({
    statusCode: answer.statusCode,
    code: answer.code,
    message: answer.message,
  });
  return [
    `HTTP/1.1 ${answer.statusCode} ${answer.reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Answers what Node refuses before the application sees it (a request too slow to arrive, bad
 * HTTP, oversized headers) as Node would, but with the API's JSON error body: `408
 * REQUEST_TIMEOUT` for a trickled request. A connection whose response has begun, or that the
 * client already closed, is just closed. Nothing is logged: these are the client's failures.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writable && socket.bytesWritten === 0) {
      socket.end(clientErrorResponse(error.code));
      return;
    }
    socket.destroy();
  });
}
