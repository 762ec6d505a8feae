import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait-for';

/** One chunk of a scripted stream. */
export interface ScriptedChunk {
  /** Wait before sending this chunk. The headers go out with the first chunk, so a delay there is a slow answer. */
  delayMs?: number;
  /** Sent as `data: <JSON>`; a string is sent raw, to script malformed chunks. */
  data: unknown;
}

/** What the server answers to one `POST /v1/chat/completions`. */
export type Scripted =
  | {
      kind: 'stream';
      chunks: readonly ScriptedChunk[];
      /** Send `data: [DONE]` after the chunks. @default true */
      done?: boolean;
    }
  | {
      kind: 'error';
      status: number;
      /** JSON body. @default { error: { message: 'scripted <status>' } } */
      body?: unknown;
      headers?: Record<string, string>;
    };

/** A request the server received. */
export interface ReceivedRequest {
  /** The parsed JSON body (the raw text when it is not JSON). */
  body: any;
  headers: Record<string, string | string[] | undefined>;
  /** The client closed the connection before the scripted stream ended. */
  closedEarly: boolean;
}

const COMPLETIONS_PATH = '/v1/chat/completions';

/**
 * A scripted OpenAI-compatible chat completions server on 127.0.0.1, for tests: each
 * `POST /v1/chat/completions` gets the next enqueued answer, streamed as server-sent events.
 *
 * @example
 * const server = await FakeOpenAiServer.start();
 * server.enqueue({ kind: 'stream', chunks: textChunks(['Hel', 'lo']) });
 * // point the client at server.baseUrl … then: await server.close();
 */
export class FakeOpenAiServer {
  /** Requests to the completions endpoint, in arrival order. */
  readonly requests: ReceivedRequest[] = [];
  private readonly queue: Scripted[] = [];

  private constructor(
    private readonly server: Server,
    /** Base URL for an OpenAI client, e.g. `http://127.0.0.1:PORT/v1`. */
    readonly baseUrl: string,
  ) {}

  /** Starts a server on a free port. */
  static async start(): Promise<FakeOpenAiServer> {
    let self: FakeOpenAiServer | undefined;
    // A client that goes away mid-request only ends that exchange.
    const server = createServer(
      (req, res) => void self?.handle(req, res).catch(() => res.destroy()),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    self = new FakeOpenAiServer(server, `http://127.0.0.1:${port}/v1`);
    return self;
  }

  /** Adds answers, served in order; with none left the server answers 500. */
  enqueue(...responses: Scripted[]): void {
    this.queue.push(...responses);
  }

  /** Resolves once `n` requests have arrived. */
  waitForRequests(n: number, timeoutMs?: number): Promise<void> {
    return waitFor(
      () => this.requests.length >= n,
      `${n} request(s) to the fake OpenAI server (got ${this.requests.length})`,
      timeoutMs,
    ).then(() => undefined);
  }

  /** Resolves once the client of request `index` (0-based) has closed its connection early. */
  waitForClosedEarly(index: number, timeoutMs?: number): Promise<void> {
    return waitFor(
      () => this.requests[index]?.closedEarly === true,
      `the client to close request #${index} early`,
      timeoutMs,
    ).then(() => undefined);
  }

  /** Stops the server, cutting any open streams and idle keep-alive connections. */
  close(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    if (req.method !== 'POST' || req.url?.split('?')[0] !== COMPLETIONS_PATH) {
      sendJson(res, 404, {
        error: { message: `the fake OpenAI server only serves POST ${COMPLETIONS_PATH}` },
      });
      return;
    }
    const request: ReceivedRequest = {
      body: parseJson(text),
      headers: req.headers,
      closedEarly: false,
    };
    this.requests.push(request);
    const scripted = this.queue.shift();
    if (!scripted) sendJson(res, 500, { error: { message: 'no scripted response' } });
    else if (scripted.kind === 'error') {
      sendJson(
        res,
        scripted.status,
        scripted.body ?? { error: { message: `scripted ${scripted.status}` } },
        scripted.headers,
      );
    } else await this.stream(res, scripted.chunks, scripted.done ?? true, request);
  }

  private async stream(
    res: ServerResponse,
    chunks: readonly ScriptedChunk[],
    done: boolean,
    request: ReceivedRequest,
  ): Promise<void> {
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    let wake: (() => void) | undefined;
    res.on('close', () => {
      if (finished) return;
      request.closedEarly = true;
      clearTimeout(timer);
      wake?.();
    });
    // The headers are not flushed before the first chunk, so a delayed first chunk is a late answer.
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    for (const chunk of chunks) {
      if (chunk.delayMs) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, chunk.delayMs);
        });
      }
      if (request.closedEarly) return;
      res.write(
        `data: ${typeof chunk.data === 'string' ? chunk.data : JSON.stringify(chunk.data)}\n\n`,
      );
    }
    if (request.closedEarly) return;
    if (done) res.write('data: [DONE]\n\n');
    finished = true;
    res.end();
  }
}

/** Token counts as the API reports them. */
export interface ChunkUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** One `chat.completion.chunk` with a single choice. */
export function completionChunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'fake-model',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

/** The chunk `stream_options.include_usage` adds at the end: no choices, only usage. */
export function usageChunk(usage: ChunkUsage): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'fake-model',
    choices: [],
    usage,
  };
}

/**
 * A streamed text answer: a role chunk (sent at once, opening the stream), one chunk per piece
 * (each after `delayMs`), a `stop` chunk and, when `usage` is given, a usage chunk.
 */
export function textChunks(
  text: string[],
  options: { delayMs?: number; usage?: ChunkUsage } = {},
): ScriptedChunk[] {
  return [
    { data: completionChunk({ role: 'assistant', content: '' }) },
    ...text.map((content) => ({ delayMs: options.delayMs, data: completionChunk({ content }) })),
    { data: completionChunk({}, 'stop') },
    ...(options.usage ? [{ data: usageChunk(options.usage) }] : []),
  ];
}

/**
 * A streamed answer that calls tools: a role chunk, then per call a chunk with its id and name and
 * its arguments in `splitArgs` pieces (each after `delayMs`), then a `tool_calls` chunk.
 */
export function toolCallChunks(
  calls: Array<{ id: string; name: string; arguments: string }>,
  options: { delayMs?: number; splitArgs?: number; usage?: ChunkUsage } = {},
): ScriptedChunk[] {
  const pieces = Math.max(1, options.splitArgs ?? 3);
  const chunks: ScriptedChunk[] = [{ data: completionChunk({ role: 'assistant', content: null }) }];
  calls.forEach((call, index) => {
    const head = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    chunks.push({ delayMs: options.delayMs, data: completionChunk({ tool_calls: [head] }) });
    for (const piece of split(call.arguments, pieces)) {
      chunks.push({
        delayMs: options.delayMs,
        data: completionChunk({ tool_calls: [{ index, function: { arguments: piece } }] }),
      });
    }
  });
  chunks.push({ data: completionChunk({}, 'tool_calls') });
  if (options.usage) chunks.push({ data: usageChunk(options.usage) });
  return chunks;
}

function split(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
