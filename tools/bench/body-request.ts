import { request, type Agent, type OutgoingHttpHeaders } from 'node:http';

/** One request of a request-cost case: where it goes and what it sends. */
export interface BodyRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: OutgoingHttpHeaders;
  body?: Buffer;
}

/** The answer: its status and the body's `code` (the service's error format), if it has one. */
export interface BodyAnswer {
  status: number;
  code?: string;
}

function codeOf(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends `sent` to `baseUrl` with node:http and resolves with the answer, also when the server
 * answers before it read the body and closes the connection under the client still writing
 * it (a refusal of a hostile body): the write then fails, the answer counts. Rejects when no
 * answer was read, or none within `timeoutMs`; a rejection {@link closedWhileSending} is the
 * rare case of a write failing into the closed connection before the answer beside it was read.
 */
export function sendRequest(
  baseUrl: string,
  sent: BodyRequest,
  agent: Agent,
  timeoutMs = 30_000,
): Promise<BodyAnswer> {
  const url = new URL(sent.path, baseUrl);
  return new Promise((resolve, reject) => {
    let answer: BodyAnswer | undefined;
    let text = '';
    const outgoing = request(
      url,
      { method: sent.method, headers: sent.headers, agent, timeout: timeoutMs },
      (response) => {
        answer = { status: response.statusCode ?? 0 };
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        // A connection reset after the answer's head: what arrived of its body is kept.
        response.on('error', () => resolve({ ...answer!, code: codeOf(text) }));
        response.on('end', () => resolve({ ...answer!, code: codeOf(text) }));
      },
    );
    outgoing.on('timeout', () =>
      outgoing.destroy(new Error(`${sent.method} ${sent.path}: no answer within ${timeoutMs} ms`)),
    );
    outgoing.on('error', (error) =>
      answer ? resolve({ ...answer, code: codeOf(text) }) : reject(error),
    );
    // At once: libuv reads an answer that came before it writes more, where a write of its own would fail first.
    outgoing.end(sent.body);
  });
}

/** Whether `error` is a write into a connection the server closed (reset) while the body was sent. */
export function closedWhileSending(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'EPIPE' || code === 'ECONNRESET';
}
