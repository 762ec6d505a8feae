import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  OpenAIError,
} from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { abortable, CallAbortedError } from '../agent/abortable.js';
import type {
  AgentModel,
  ModelCallContext,
  ModelRequest,
  ModelResponse,
} from '../agent/agent-model.interface.js';
import { ModelCallError } from '../errors/model-call.error.js';
import { toChatMessages, toChatTools } from './openai-messages.js';
import { OpenAiStreamAssembler } from './openai-stream-assembler.js';

/** How to reach an OpenAI-compatible chat completions API. */
export interface OpenAiChatModelOptions {
  /**
   * Base URL of the API, including the version path.
   * @default the OPENAI_BASE_URL environment variable, else https://api.openai.com/v1 (the SDK's defaults)
   */
  baseUrl?: string;
  /**
   * API key, sent as a bearer token.
   * @default the OPENAI_API_KEY environment variable, else a placeholder, so servers that need no key
   * work and the others answer 401 (`MODEL_AUTH_FAILED`)
   */
  apiKey?: string;
  /** Model name, as the server knows it (e.g. `gpt-4o-mini`). */
  model: string;
  /**
   * Retries after a 408/409/429/5xx answer, a timeout or a failed connection, with exponential backoff
   * that honours `retry-after`/`retry-after-ms`. A stream that already started is never retried.
   * @default 2
   */
  maxRetries?: number;
  /**
   * Longest wait for the answer to start, per attempt, and for each next chunk once it streams.
   * @default 60000
   */
  timeoutMs?: number;
  /**
   * Sampling temperature.
   * @default the server's default
   */
  temperature?: number;
  /**
   * Cap on the tokens of one answer, sent as `max_tokens` (the field compatible servers know).
   * @default the server's default
   */
  maxTokens?: number;
  /**
   * How long one call is expected to take, in milliseconds: during a shutdown's drain, a call
   * expected to outlast it is not started.
   * @default the module's `defaultStepDurationMs`
   */
  expectedDurationMs?: number;
}

/** Sent when no key is configured: the SDK refuses to start without one, local servers need none. */
const NO_API_KEY = 'no-api-key';

/**
 * An `AgentModel` backed by an OpenAI-compatible chat completions API, streamed: text and tool
 * calls reach `context.stream` as they arrive. Aborting `context.signal` cancels the HTTP request
 * and rejects with `CallAbortedError`; other failures reject with `ModelCallError`.
 *
 * @example
 * const model = new OpenAiChatModel({ baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' });
 */
export class OpenAiChatModel implements AgentModel {
  readonly name: string;
  readonly expectedDurationMs?: number;
  private readonly client: OpenAI;
  private readonly timeoutMs: number;

  constructor(private readonly options: OpenAiChatModelOptions) {
    this.name = `openai:${options.model}`;
    this.expectedDurationMs = options.expectedDurationMs;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey ?? process.env.OPENAI_API_KEY ?? NO_API_KEY,
      maxRetries: options.maxRetries ?? 2,
      timeout: this.timeoutMs,
      // Every failure is reported as a ModelCallError; the SDK would also print bad chunks to the console.
      logLevel: 'off',
      fetch: (url, init) =>
        globalThis.fetch(url, init).catch((error: unknown) => Promise.reject(inThisRealm(error))),
    });
  }

  generate(request: ModelRequest, context: ModelCallContext): Promise<ModelResponse> {
    // The SDK sleeps between retries without watching the signal; racing it settles a stop at once.
    return abortable(this.stream(request, context), context.signal);
  }

  private async stream(
    request: ModelRequest,
    { signal, stream: sink }: ModelCallContext,
  ): Promise<ModelResponse> {
    if (signal.aborted) throw new CallAbortedError();
    // One controller per call for both ways it is cut short (the run stops, the stream stalls); it
    // also keeps the SDK's per-attempt abort listeners off the run's long-lived signal.
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    // The SDK's timeout only covers the wait for the response headers, not a stream that stalls.
    let stalled = false;
    let idle: NodeJS.Timeout | undefined;
    const armIdleTimer = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        stalled = true;
        controller.abort();
      }, this.timeoutMs);
    };
    const fail = (error: unknown): Error => {
      if (signal.aborted) return new CallAbortedError();
      if (stalled)
        return new ModelCallError(
          'MODEL_TIMEOUT',
          `${this.target()} stopped streaming for ${this.timeoutMs} ms`,
          { cause: error },
        );
      return this.toModelCallError(error);
    };
    try {
      const chunks = await this.client.chat.completions
        .create(this.params(request), { signal: controller.signal })
        .catch((error: unknown) => Promise.reject(fail(error)));
      const assembler = new OpenAiStreamAssembler(sink);
      armIdleTimer();
      for await (const chunk of guard(chunks, fail)) {
        // Chunks already received may still be handed out after an abort; nobody may see them.
        if (signal.aborted) break;
        armIdleTimer();
        assembler.push(chunk);
      }
      // The SDK ends the iteration quietly when its request is aborted, as if the stream were complete.
      if (signal.aborted || stalled) throw fail(undefined);
      return assembler.finish();
    } finally {
      clearTimeout(idle);
      signal.removeEventListener('abort', onAbort);
    }
  }

  private params(request: ModelRequest): ChatCompletionCreateParamsStreaming {
    const { model, temperature, maxTokens } = this.options;
    return {
      model,
      messages: toChatMessages(request.messages),
      // An empty tools list is rejected by the API; no tools means no field.
      ...(request.tools.length > 0 && { tools: toChatTools(request.tools) }),
      ...(temperature !== undefined && { temperature }),
      ...(maxTokens !== undefined && { max_tokens: maxTokens }),
      stream: true,
      stream_options: { include_usage: true },
    };
  }

  /** Maps what the SDK threw (after its own retries) to a code that says what to check. */
  private toModelCallError(error: unknown): ModelCallError {
    if (error instanceof ModelCallError) return error;
    const target = this.target();
    const cause = { cause: error };
    // The timeout error is a connection error too, so it is checked first.
    if (error instanceof APIConnectionTimeoutError) {
      return new ModelCallError(
        'MODEL_TIMEOUT',
        `${target} did not answer within ${this.timeoutMs} ms`,
        cause,
      );
    }
    if (error instanceof APIConnectionError) {
      return new ModelCallError(
        'MODEL_UNREACHABLE',
        `could not connect to ${target}: ${rootMessage(error)}`,
        cause,
      );
    }
    if (error instanceof APIError) {
      const { status } = error;
      const said = `${target} answered ${error.message}`;
      const withStatus = { cause: error, status };
      // No status: the server sent an error event inside a stream that had started fine.
      if (status === undefined)
        return new ModelCallError(
          'MODEL_UNAVAILABLE',
          `${target} failed mid-stream: ${error.message}`,
          cause,
        );
      if (status === 401 || status === 403)
        return new ModelCallError('MODEL_AUTH_FAILED', said, withStatus);
      if (status === 404) return new ModelCallError('MODEL_NOT_FOUND', said, withStatus);
      if (status === 408) return new ModelCallError('MODEL_TIMEOUT', said, withStatus);
      if (status === 429) return new ModelCallError('MODEL_RATE_LIMITED', said, withStatus);
      if (status >= 500) return new ModelCallError('MODEL_UNAVAILABLE', said, withStatus);
      return new ModelCallError('MODEL_REQUEST_REJECTED', said, withStatus);
    }
    // The SDK lets JSON.parse's error out of the iteration when a chunk is not JSON.
    if (error instanceof SyntaxError || error instanceof OpenAIError) {
      return new ModelCallError(
        'MODEL_BAD_RESPONSE',
        `${target} sent a stream that could not be read: ${rootMessage(error)}`,
        cause,
      );
    }
    // What is left comes from fetch while reading the body, e.g. undici's "terminated" when the server hangs up.
    return new ModelCallError(
      'MODEL_UNREACHABLE',
      `the connection to ${target} broke off: ${rootMessage(error)}`,
      cause,
    );
  }

  private target(): string {
    return `model "${this.options.model}" at ${this.client.baseURL}`;
  }
}

/** Re-throws what the SDK's iteration throws as mapped by `fail`, and only that: sink errors pass unchanged. */
async function* guard<T>(
  source: AsyncIterable<T>,
  fail: (error: unknown) => Error,
): AsyncGenerator<T> {
  try {
    for await (const item of source) yield item;
  } catch (error) {
    throw fail(error);
  }
}

/**
 * The SDK tells fetch's errors apart with `instanceof Error`, so one made in another realm (Node's
 * fetch under a test runner's vm context) loses its name there, and a timeout reads as a refused connection.
 */
function inThisRealm(error: unknown): unknown {
  if (error instanceof Error || !isErrorLike(error)) return error;
  const copy = new Error(error.message, { cause: error.cause });
  copy.name = error.name;
  return copy;
}

function isErrorLike(value: unknown): value is { name: string; message: string; cause?: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Error).message === 'string' &&
    typeof (value as Error).name === 'string'
  );
}

/** The innermost cause's message: fetch wraps the useful part ("connect ECONNREFUSED …") in causes. */
function rootMessage(error: unknown): string {
  let current = error;
  while (isErrorLike(current) && isErrorLike(current.cause)) current = current.cause;
  return isErrorLike(current) ? current.message : String(current);
}
