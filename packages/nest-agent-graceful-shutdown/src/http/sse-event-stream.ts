import type { ServerResponse } from 'node:http';
import type { ChannelEvent } from '../contracts/run-event-log.interface.js';
import { HeartbeatTicker, type HeartbeatTarget } from './heartbeat-ticker.js';

/**
 * Writes AG-UI events to an HTTP response as server-sent events: a logged event with its
 * `id:`, a notice of this connection without one. Writes after the client went away are
 * dropped: the run goes on. When nothing was written for `heartbeatMs`, a comment line keeps
 * proxies from cutting the idle connection (one model call can be silent for a minute). The
 * heartbeats of all streams come from one shared ticker (`HeartbeatTicker`), not a timer each.
 */
export class SseEventStream implements HeartbeatTarget {
  private stopHeartbeat?: () => void;
  private lastWrite = performance.now();
  private endedHere = false;

  /** @param heartbeatMs idle time before a comment line is written, in milliseconds; 0: never. */
  constructor(
    private readonly response: ServerResponse,
    private readonly heartbeatMs = 0,
  ) {}

  /** Sends the SSE headers and starts the heartbeat. */
  open(): void {
    this.response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    this.response.flushHeaders();
    this.lastWrite = performance.now();
    if (this.heartbeatMs > 0)
      this.stopHeartbeat = HeartbeatTicker.every(this.heartbeatMs).add(this);
  }

  readonly write = ({ id, event }: ChannelEvent): void => {
    this.raw(`${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`);
  };

  /** True once the connection is gone or ended. */
  get ended(): boolean {
    return this.response.writableEnded || this.response.destroyed;
  }

  /** Calls `handler` once if the client goes away before this side ended the response. */
  onClientGone(handler: () => void): void {
    this.response.once('close', () => {
      if (!this.endedHere) handler();
    });
  }

  /** Stops the heartbeat and ends the response. */
  close(): void {
    this.endedHere = true;
    this.stopHeartbeat?.();
    if (!this.response.writableEnded) this.response.end();
  }

  /** `performance.now()` of the last write: the shared ticker beats after a silent period. */
  get lastWriteAt(): number {
    return this.lastWrite;
  }

  beat(): void {
    this.raw(': heartbeat\n\n');
  }

  /** Writes, and pushes the next heartbeat back by a full period. */
  private raw(text: string): void {
    if (this.ended) return;
    this.response.write(text);
    this.lastWrite = performance.now();
  }
}
