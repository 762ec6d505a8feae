import type { ServerResponse } from 'node:http';
import { EventType, type BaseEvent } from '@ag-ui/core';

/**
 * Writes AG-UI events to an HTTP response as server-sent events, each with an `id:`.
 * Steps left open by a stopped run are closed before the terminal event, so the stream
 * is always well formed. Writes after the client went away are dropped: the run goes on.
 * When nothing was written for `heartbeatMs`, a comment line keeps proxies from cutting
 * the idle connection (one model call can be silent for a minute).
 */
export class SseEventStream {
  private nextId = 1;
  private readonly openSteps: string[] = [];
  private heartbeat?: NodeJS.Timeout;

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
    if (this.heartbeatMs > 0) {
      this.heartbeat = setTimeout(() => this.beat(), this.heartbeatMs);
      this.heartbeat.unref();
    }
  }

  readonly write = (event: BaseEvent): void => {
    const step = (event as { stepName?: string }).stepName ?? '';
    if (event.type === EventType.STEP_STARTED) this.openSteps.push(step);
    const open = this.openSteps.lastIndexOf(step);
    if (event.type === EventType.STEP_FINISHED && open >= 0) this.openSteps.splice(open, 1);
    if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) {
      while (this.openSteps.length) this.send({ type: EventType.STEP_FINISHED, stepName: this.openSteps.pop() } as BaseEvent);
    }
    this.send(event);
  };

  /** Stops the heartbeat and ends the response. */
  close(): void {
    clearTimeout(this.heartbeat);
    if (!this.response.writableEnded) this.response.end();
  }

  private send(event: BaseEvent): void {
    this.raw(`id: ${this.nextId++}\ndata: ${JSON.stringify(event)}\n\n`);
  }

  private beat(): void {
    this.raw(': heartbeat\n\n');
  }

  /** Writes, and pushes the heartbeat back by a full period (one timer, refreshed, per stream). */
  private raw(text: string): void {
    if (this.response.writableEnded || this.response.destroyed) return;
    this.response.write(text);
    this.heartbeat?.refresh();
  }
}
