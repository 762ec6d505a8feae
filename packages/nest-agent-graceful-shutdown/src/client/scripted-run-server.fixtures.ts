import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the server received, with the time it arrived (ms since the epoch). */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** Answers one request. */
export type Responder = (response: ServerResponse, request: RecordedRequest) => void;

/** One frame of a scripted stream: an event with its id, or a notice without one. */
export type ScriptedFrame =
  { id: number; event: object } | { notice: object } | { comment: string };

/**
 * A local `node:http` server answering each request with the next scripted responder (a request
 * beyond the script gets 500 `UNSCRIPTED`, or `fallback` when set), recording every request.
 */
export class ScriptedRunServer {
  readonly requests: RecordedRequest[] = [];
  fallback?: Responder;
  private readonly script: Responder[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<ScriptedRunServer> {
    let self: ScriptedRunServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        self!.requests.push(request);
        const responder =
          self!.script.shift() ??
          self!.fallback ??
          refuse(500, 'UNSCRIPTED', 'no responder left for this request');
        responder(res, request);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new ScriptedRunServer(server);
    return self;
  }

  /** The URL runs are POSTed to. */
  get runsUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1/runs`;
  }

  /** Appends responders to the script, answered in order. */
  answer(...responders: Responder[]): this {
    this.script.push(...responders);
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Answers `text/event-stream` with the frames; then ends the response, destroys the socket, or keeps it open. */
export function stream(
  frames: ScriptedFrame[],
  then: 'end' | 'destroy' | 'keep-open' = 'end',
): Responder {
  return (response) => {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
    });
    for (const frame of frames) response.write(encode(frame));
    if (then === 'end') response.end();
    else if (then === 'destroy') setImmediate(() => response.destroy());
  };
}

/** Answers the service's error JSON `{ statusCode, code, message }`, with `Retry-After` (seconds) when given. */
export function refuse(
  status: number,
  code: string,
  message: string,
  retryAfterSeconds?: number,
): Responder {
  return (response) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (retryAfterSeconds !== undefined) headers['Retry-After'] = String(retryAfterSeconds);
    response.writeHead(status, headers);
    response.end(JSON.stringify({ statusCode: status, code, message }));
  };
}

function encode(frame: ScriptedFrame): string {
  if ('comment' in frame) return `: ${frame.comment}\n\n`;
  if ('notice' in frame) return `data: ${JSON.stringify(frame.notice)}\n\n`;
  return `id: ${frame.id}\ndata: ${JSON.stringify(frame.event)}\n\n`;
}

/** Numbers events from `firstId` on. */
export function numbered(firstId: number, events: object[]): ScriptedFrame[] {
  return events.map((event, index) => ({ id: firstId + index, event }));
}

/** The events of one assistant text message. */
export function textMessage(messageId: string, ...deltas: string[]): object[] {
  return [
    { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
    ...deltas.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
    { type: 'TEXT_MESSAGE_END', messageId },
  ];
}
