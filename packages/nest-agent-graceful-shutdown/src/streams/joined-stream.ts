import { EventType, type BaseEvent } from '@ag-ui/core';
import type { SseEventStream } from '../http/sse-event-stream.js';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';
import type { LoggedEvent, RunEventLog, RunLogKey } from '../contracts/run-event-log.interface.js';
import { SharedInterval } from '../http/shared-interval.js';
import { isTerminal } from './stream-shape.js';

const REPLAY_PAGE = 1_000;

/** What a joined stream asks about its run while it waits for events. */
export interface RunLiveness {
  /** How often to ask, in milliseconds. */
  intervalMs: number;
  /** Undefined while the run goes on (or will be continued); else the notice that ends the join, or null to just end it. */
  check(): Promise<BaseEvent | null | undefined>;
}

/**
 * One client following a run's log: the events after its last id, then the live ones, each
 * once, until the terminal event. A gap in the ids (the log's store lost events) ends the
 * connection without a terminal event, so the client's next join gets the clear answer.
 */
export class JoinedStream {
  private cursor: number;
  private unfollow?: Unsubscribe;
  private stopChecks?: () => void;
  private finished = false;
  /** A liveness check is under way: a slow store must not stack them up. */
  private checking = false;
  private resolveDone!: () => void;
  /** Resolves when the stream has ended, however it did. */
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(
    private readonly sse: SseEventStream,
    private readonly log: RunEventLog,
    private readonly key: RunLogKey,
    afterId: number,
    private readonly liveness: RunLiveness,
  ) {
    this.cursor = afterId;
  }

  /** Writes `first` (already read), replays the rest of the log, then follows it live. */
  async start(first: readonly LoggedEvent[]): Promise<void> {
    this.sse.open();
    this.sse.onClientGone(() => this.end());
    this.deliver(first);
    for (let page = first; !this.finished && page.length === REPLAY_PAGE;) {
      page = (await this.log.read(this.key, this.cursor, REPLAY_PAGE)) ?? [];
      this.deliver(page);
    }
    if (this.finished) return;
    this.unfollow = this.log.follow(this.key, this.cursor, { onEvents: (events) => this.deliver(events), onError: () => this.end() });
    // One timer for all joins of this period, not one per join.
    this.stopChecks = SharedInterval.every(this.liveness.intervalMs).add(() => void this.checkLiveness());
  }

  /** Ends the connection with the handover notice: the client joins again, after `lastEventId`, anywhere. */
  handOver(): void {
    if (this.finished) return;
    const { threadId, runId } = this.key;
    this.sse.write({ event: { type: EventType.CUSTOM, name: 'handover', value: { threadId, runId, lastEventId: this.cursor } } as BaseEvent });
    this.end();
  }

  /** Ends the connection (idempotent). */
  end(): void {
    if (this.finished) return;
    this.finished = true;
    this.stopChecks?.();
    this.unfollow?.();
    this.sse.close();
    this.resolveDone();
  }

  private deliver(events: readonly LoggedEvent[]): void {
    for (const entry of events) {
      if (this.finished) return;
      if (entry.id <= this.cursor) continue;
      if (entry.id !== this.cursor + 1) return this.end();
      this.sse.write(entry);
      this.cursor = entry.id;
      if (isTerminal(entry.event)) return this.end();
    }
  }

  private async checkLiveness(): Promise<void> {
    if (this.finished || this.checking) return;
    this.checking = true;
    try {
      // A log that now ends before this stream's cursor lost events (its store was emptied): the client's next join gets the clear answer.
      const last = await this.log.last(this.key);
      if ((last?.id ?? 0) < this.cursor) return this.end();
      // Events the follow did not bring (a log whose live delivery stays on the writer's instance) come now.
      if ((last?.id ?? 0) > this.cursor) this.deliver((await this.log.read(this.key, this.cursor, REPLAY_PAGE)) ?? []);
      if (this.finished) return;
      const notice = await this.liveness.check();
      if (notice === undefined || this.finished) return;
      // The run stopped: what its log got meanwhile comes first.
      this.deliver((await this.log.read(this.key, this.cursor, REPLAY_PAGE)) ?? []);
      if (this.finished) return;
      if (notice) this.sse.write({ event: notice });
      this.end();
    } catch {
      // A failed check (store or log unreachable) is asked again at the next interval.
    } finally {
      this.checking = false;
    }
  }
}
