import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  orderModelReply,
  type ChatMessage,
  type ChatTool,
  type ScriptedReply,
} from './order-model-script';

const STEPS = 4;
const REASONING_MS = 150;

/** One `chat.completion.chunk` with a single choice. */
function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  const body = {
    id: 'chatcmpl-counting',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'counting-model',
  };
  return `data: ${JSON.stringify({ ...body, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`;
}

/**
 * The counting model as an OpenAI-compatible Chat Completions server (streamed): like the
 * consumer apps' native counting model, it decides from the history it is sent, asking for the
 * `count` tool once per step not yet answered after the last user message, then answering in
 * text. A resumed run therefore continues where it stopped. A request for `order-model` gets the
 * scripted order model instead (`orderModelReply`). Serves `POST /v1/chat/completions` on
 * 127.0.0.1.
 *
 * @example
 * const server = await CountingOpenAiServer.start(); // OPENAI_BASE_URL = server.baseUrl
 */
export class CountingOpenAiServer {
  /** Completions requests served. */
  requests = 0;

  private constructor(
    private readonly server: Server,
    /** Base URL for an OpenAI client, e.g. `http://127.0.0.1:PORT/v1`. */
    readonly baseUrl: string,
  ) {}

  /** Starts the server on a free port. */
  static async start(): Promise<CountingOpenAiServer> {
    let self: CountingOpenAiServer | undefined;
    const server = createServer(
      (req, res) => void self?.handle(req, res).catch(() => res.destroy()),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    self = new CountingOpenAiServer(
      server,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    );
    return self;
  }

  /** Stops the server, cutting open connections. */
  close(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'only POST /v1/chat/completions' } }));
      return;
    }
    this.requests += 1;
    const {
      model,
      messages,
      tools = [],
    } = JSON.parse(Buffer.concat(parts).toString('utf8')) as {
      model?: string;
      messages: ChatMessage[];
      tools?: ChatTool[];
    };
    const reply =
      model === 'order-model' ? orderModelReply(messages, tools) : countingReply(messages);
    // A model takes a moment to answer, as the native counting model does: a stop lands between steps.
    await new Promise((resolve) => setTimeout(resolve, REASONING_MS).unref());
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk({ role: 'assistant', content: 'text' in reply ? '' : null }));
    if ('text' in reply) {
      res.write(chunk({ content: reply.text }));
      res.write(chunk({}, 'stop'));
    } else {
      const { id, name, arguments: args } = reply.call;
      res.write(
        chunk({
          tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: args } }],
        }),
      );
      res.write(chunk({}, 'tool_calls'));
    }
    res.end('data: [DONE]\n\n');
  }
}

/** The counting model: the `count` tool once per step not yet answered after the last user message, then the text. */
function countingReply(messages: readonly ChatMessage[]): ScriptedReply {
  const lastUser = messages.map((message) => message.role).lastIndexOf('user');
  const done = messages.slice(lastUser).filter((message) => message.role === 'tool').length;
  if (done >= STEPS) return { text: `counted to ${STEPS}` };
  return {
    call: {
      id: `call-${lastUser}-${done + 1}`,
      name: 'count',
      arguments: JSON.stringify({ n: done + 1 }),
    },
  };
}
