import { request } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * One HTTP request sent as given: the path is not normalised (`/v1/threads/..` reaches the
 * server as written) and any header, `Content-Encoding` included, goes as set; headers given
 * as a flat `[name, value, name, value…]` list may repeat a name.
 */
export function rawRequest(
  baseUrl: string,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string> | string[];
    body?: Buffer | string;
  },
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        timeout: 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        });
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 30 s')));
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/**
 * A request whose body arrives slowly: the head at once, then `declaredBytes` announced but
 * one byte every `everyMs`, until the server answers and closes, or `abortAfterMs` passes and
 * the client gives up itself. Resolves with the status line's code (0: no answer) once closed.
 */
export function trickledRequest(
  baseUrl: string,
  head: string,
  options: { declaredBytes: number; everyMs: number; abortAfterMs?: number; deadlineMs?: number },
): Promise<{ status: number; text: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`${head}Content-Length: ${options.declaredBytes}\r\n\r\n`);
    });
    const drip = setInterval(() => socket.writable && socket.write(' '), options.everyMs);
    const abort =
      options.abortAfterMs === undefined
        ? undefined
        : setTimeout(() => socket.destroy(), options.abortAfterMs);
    const deadline = setTimeout(
      () => socket.destroy(new Error('the server kept the trickled request open')),
      options.deadlineMs ?? 30_000,
    );
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(abort);
      clearTimeout(deadline);
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : 0, text });
    });
  });
}

/**
 * A request that sends `Expect: 100-continue` and its body only if the server answers `100
 * Continue`: resolves with whether it did, and the final answer's status and body.
 */
export function continueRequest(
  baseUrl: string,
  options: { path: string; headers: Record<string, string>; body: Buffer | string },
): Promise<{ continued: boolean; status: number; body: any }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let continued = false;
    const outgoing = request({
      host: url.hostname,
      port: url.port,
      method: 'POST',
      path: options.path,
      headers: {
        ...options.headers,
        expect: '100-continue',
        'content-length': String(Buffer.byteLength(options.body)),
      },
      timeout: 30_000,
    });
    outgoing.on('continue', () => {
      continued = true;
      outgoing.end(options.body);
    });
    outgoing.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        outgoing.destroy();
        resolve({
          continued,
          status: response.statusCode ?? 0,
          body: text.startsWith('{') ? JSON.parse(text) : text,
        });
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 30 s')));
    outgoing.on('error', (error) => (continued ? undefined : reject(error)));
    outgoing.flushHeaders();
  });
}
