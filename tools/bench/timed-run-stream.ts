import type { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { openSseRequest, type SseRequestEnd } from './sse-request';
import { withDeadline } from './wait-until';

/** The terminal event of a run stream, with the fields a replaced run carries. */
export interface TerminalEvent {
  type: string;
  code?: string;
  replacedBy?: { runId?: string; multitask?: string };
}

/** What {@link TimedRunStream.arrival} takes for the terminal event, whichever type it is. */
export const TERMINAL = 'terminal';

/**
 * A run request whose stream notes when (`performance.now()`) the first event of each type
 * arrived, so a latency can be read against the moment another request was sent.
 */
export class TimedRunStream {
  /** Arrival of the first event of each type. */
  private readonly firsts = new Map<string, number>();
  private readonly waiters = new Map<string, (atMs: number) => void>();
  /** The terminal event (`RUN_FINISHED` or `RUN_ERROR`), once it arrived. */
  terminal?: TerminalEvent;
  /** Settles (never rejects) when the stream has ended, however it ended. */
  readonly done: Promise<SseRequestEnd>;
  private readonly abortRequest: () => void;

  /** POSTs `input` to `url` (`/v1/runs` with its query) and starts reading the stream. */
  constructor(url: string, agent: Agent, token: string, input: unknown) {
    const request = openSseRequest(url, { method: 'POST', agent, token, body: input }, (data) =>
      this.read(data),
    );
    this.done = request.done;
    this.abortRequest = request.abort;
  }

  /**
   * When the first event of `type` (or the terminal one, {@link TERMINAL}) arrived; waits for it,
   * failing if the stream ends without it or it has not come within `timeoutMs`.
   */
  async arrival(type: string, timeoutMs: number): Promise<number> {
    const seen = this.firsts.get(type);
    if (seen !== undefined) return seen;
    const arrived = new Promise<number>((resolve) => this.waiters.set(type, resolve));
    const first = await withDeadline(Promise.race([arrived, this.done]), timeoutMs, undefined);
    if (typeof first === 'number') return first;
    const why = first
      ? `the stream ended first (HTTP ${first.status}${first.error ? `: ${first.error.slice(0, 200)}` : ''})`
      : `not within ${timeoutMs} ms`;
    throw new Error(`no ${type}: ${why}`);
  }

  /** Gives up on the stream. */
  abort(): void {
    this.abortRequest();
  }

  private read(data: string): void {
    const event = JSON.parse(data) as TerminalEvent;
    const atMs = performance.now();
    this.note(event.type, atMs);
    if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') {
      this.terminal = { type: event.type, code: event.code, replacedBy: event.replacedBy };
      this.note(TERMINAL, atMs);
    }
  }

  private note(key: string, atMs: number): void {
    if (this.firsts.has(key)) return;
    this.firsts.set(key, atMs);
    this.waiters.get(key)?.(atMs);
  }
}
