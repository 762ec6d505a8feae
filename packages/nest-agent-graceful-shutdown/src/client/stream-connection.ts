import type { HttpAgentFetchFn } from '@ag-ui/client';
import { SseFrameParser, type SseFrame } from './sse-frame-parser.js';

/** One request of a run: the method, the URL and the `RequestInit` (its `signal` is replaced). */
export interface RunRequest {
  method: 'POST' | 'GET';
  url: string;
  init: RequestInit;
}

/**
 * One HTTP request of a run's stream, with a watchdog: when no byte arrives for `silenceMs()`
 * milliseconds (asked again after every chunk; 0: no limit), the request is aborted and
 * `timedOut` is set. Aborting `runSignal` aborts it too; `close()` releases everything
 * (the timer, the listener, the socket).
 *
 * @example
 * const connection = new StreamConnection(signal, () => 45_000);
 * try {
 *   const response = await connection.open(fetch, request);
 *   for await (const frame of connection.frames(response)) handle(frame);
 * } finally { connection.close(); }
 */
export class StreamConnection {
  private readonly controller = new AbortController();
  private timer?: ReturnType<typeof setTimeout>;
  private silentFor?: number;
  private readonly onRunAbort = () => this.controller.abort(this.runSignal.reason);

  constructor(
    private readonly runSignal: AbortSignal,
    private readonly silenceMs: () => number,
  ) {
    if (runSignal.aborted) this.controller.abort(runSignal.reason);
    else runSignal.addEventListener('abort', this.onRunAbort, { once: true });
  }

  /** How long the connection had stayed silent when the watchdog cut it, in milliseconds; else undefined. */
  get timedOutAfterMs(): number | undefined {
    return this.silentFor;
  }

  /** Sends the request; resolves with the response once its headers are in. */
  open(fetch: HttpAgentFetchFn, request: RunRequest): Promise<Response> {
    this.arm();
    return fetch(request.url, {
      ...request.init,
      method: request.method,
      signal: this.controller.signal,
    });
  }

  /** The frames of the response's body, as they arrive; a frame cut off by the end of the body is dropped. */
  async *frames(response: Response, onComment?: (text: string) => void): AsyncGenerator<SseFrame> {
    if (!response.body) throw new Error('the response has no body');
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseFrameParser(onComment);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        this.arm();
        yield* parser.push(decoder.decode(value, { stream: true }));
      }
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }

  /** Ends the request (if still open) and releases the timer and the listener. */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.runSignal.removeEventListener('abort', this.onRunAbort);
    this.controller.abort();
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ms = this.silenceMs();
    if (ms <= 0 || this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.silentFor = ms;
      this.controller.abort(new Error(`no byte arrived for ${ms} ms`));
    }, ms);
  }
}
