import { request, type Agent } from 'node:http';
import { messageOf } from './bench-stats';
import { drainSseFrames } from './sse-frames';

/** One HTTP request whose answer is read as server-sent events. */
export interface SseRequestInit {
  method: 'GET' | 'POST';
  agent: Agent;
  token: string;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** How the request ended. */
export interface SseRequestEnd {
  /** HTTP status; 0 if no response arrived. */
  status: number;
  /** A transport error or the refusal body, when the stream did not end normally. */
  error?: string;
  /** A refusal to retry later (503 or 429): its `Retry-After`, in seconds. */
  retryAfterSeconds?: number;
}

/** The `Retry-After` of a refusal that asks to come back (503, 429), in seconds; else undefined. */
function retryAfterOf(status: number, header: string | string[] | undefined): number | undefined {
  if (status !== 503 && status !== 429) return undefined;
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** A request whose event stream is read in the background. */
export interface SseRequest {
  /** Settles (never rejects) when the stream has ended, however it ended. */
  done: Promise<SseRequestEnd>;
  /** Gives up on the stream: clean-up on error paths. */
  abort(): void;
}

/**
 * Sends a request with a bearer token and hands each SSE frame's data (and `id:`) to `onData`
 * as it arrives. A refusal's body is kept for the error message instead. If `onData` throws, the
 * request is given up with that error: thrown in a socket callback it would end the process.
 */
export function openSseRequest(
  url: string,
  init: SseRequestInit,
  onData: (data: string, id?: string) => void,
): SseRequest {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const req = request(url, {
    method: init.method,
    agent: init.agent,
    headers: {
      authorization: `Bearer ${init.token}`,
      accept: 'text/event-stream',
      ...(body === undefined
        ? {}
        : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
      ...init.headers,
    },
  });
  const end: SseRequestEnd = { status: 0 };
  const done = new Promise<SseRequestEnd>((resolve) => {
    const finish = (error?: string) => {
      if (error && !end.error) end.error = error;
      resolve(end);
    };
    req.on('error', (error) => finish(String(error)));
    req.on('response', (res) => {
      end.status = res.statusCode ?? 0;
      end.retryAfterSeconds = retryAfterOf(end.status, res.headers['retry-after']);
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        if (end.status !== 200) return;
        try {
          buffer = drainSseFrames(buffer, onData);
        } catch (error) {
          finish(`reading the stream: ${messageOf(error)}`);
          req.destroy();
        }
      });
      res.on('error', (error) => finish(String(error)));
      res.on('close', () =>
        finish(end.status === 200 ? undefined : `HTTP ${end.status}: ${buffer}`),
      );
    });
  });
  req.end(body);
  return { done, abort: () => req.destroy() };
}
