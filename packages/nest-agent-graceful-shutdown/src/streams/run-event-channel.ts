import { EventEmitter } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { EventType, type BaseEvent } from '@ag-ui/core';
import type { Unsubscribe } from '../signals/signal-bus.interface';
import type { LoggedEvent, RunEventLog, RunLogKey } from './run-event-log.interface';
import { isTerminal, StreamShape } from './stream-shape';

/** An event as a connection receives it: with its log id, or without one for a notice of that connection. */
export interface ChannelEvent {
  id?: number;
  event: BaseEvent;
}

/** An event on its way: `sent` once it reached the connections (before the log took it, during an outage of the log). */
interface Pending extends ChannelEvent {
  sent?: boolean;
}

const REPLAY_PAGE = 1_000;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 2_000;
/** How long, after an attempt ends, its last events are still offered to a log that is down, in milliseconds. */
const LATE_FLUSH_MS = 60_000;

/**
 * One run attempt's events on their way out: each gets the next id of the run's log, is
 * appended to the log, and only then reaches the attempt's connections. So an event a client
 * saw is always in the log, and a client that re-joins after any id it saw misses nothing,
 * whichever instance writes next. Appends are batched and kept in order; while the log is
 * unreachable they wait and retry, so the log continues instead of having a gap.
 */
export class RunEventChannel {
  private readonly listeners = new Set<(event: ChannelEvent) => void>();
  private readonly queue: Pending[] = [];
  private readonly progress = new EventEmitter().setMaxListeners(0);
  private flushing?: Promise<void>;
  private lastId: number;
  private closed = false;
  private giveUpAt = Infinity;

  private constructor(
    private readonly log: RunEventLog,
    private readonly key: RunLogKey,
    private readonly shape: StreamShape,
    lastId: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.lastId = lastId;
  }

  /**
   * Opens the run's log for a new attempt: ids continue after its last event, and what an
   * earlier attempt left open (a handover, a crash) is closed first. The first attempt of a
   * run starts at id 1 even while the log is unreachable (it catches up later); a later
   * attempt cannot know where to continue then, and the open fails.
   */
  static async open(log: RunEventLog, key: RunLogKey, options: { firstAttempt: boolean; onError?: (error: unknown) => void }): Promise<RunEventChannel> {
    const onError = options.onError ?? (() => undefined);
    let last: LoggedEvent | null;
    try {
      last = await log.last(key);
    } catch (error) {
      if (!options.firstAttempt) throw error;
      onError(error);
      last = null;
    }
    const shape = new StreamShape();
    if (last && !isTerminal(last.event)) {
      for (let after = 0, page: LoggedEvent[] | null; (page = await log.read(key, after, REPLAY_PAGE))?.length; after = page.at(-1)!.id) {
        for (const { event } of page) shape.see(event);
      }
    }
    const channel = new RunEventChannel(log, key, shape, last?.id ?? 0, onError);
    for (const event of shape.closingEvents()) channel.emit(event);
    return channel;
  }

  /** The id of the last event this attempt queued (or its log held when it opened). */
  get lastEventId(): number {
    return this.lastId;
  }

  /** True while the run's log has a segment open: a continuation must not start another. */
  get continuing(): boolean {
    return this.shape.started;
  }

  /** Listens to the attempt's events, logged or notices, in order. */
  subscribe(listener: (event: ChannelEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Logs and sends one event. A `RUN_STARTED` inside a segment still open (a client's retry of
   * a run handed over or crashed) only tells this attempt's connection; a terminal event first
   * closes the steps left open.
   */
  readonly emit = (event: BaseEvent): void => {
    if (this.closed) return;
    if (event.type === EventType.RUN_STARTED && this.shape.started) return this.notice(event);
    if (isTerminal(event)) for (const closing of this.shape.closingEvents()) this.push(closing);
    this.push(event);
  };

  /** Sends an event to this attempt's connections only, without an id, after those queued before it. */
  notice(event: BaseEvent): void {
    this.queue.push({ event });
    this.kick();
  }

  /** Closes in the log whatever the attempt left open (steps, a message, tool calls). */
  closeOpen(): void {
    for (const closing of this.shape.closingEvents()) this.push(closing);
  }

  /**
   * Ends the attempt without a terminal event: closes what is open in the log, and tells the
   * connections where the run's log stops, so their clients join it elsewhere.
   */
  handOver(): void {
    this.closeOpen();
    const { threadId, runId } = this.key;
    this.notice({ type: EventType.CUSTOM, name: 'handover', value: { threadId, runId, lastEventId: this.lastId } } as BaseEvent);
  }

  /**
   * Stops taking events and waits, up to `timeoutMs`, until every queued event has reached the
   * connections. Events the log has not taken yet are still appended in the background, for up
   * to a minute; past that they are reported to `onError`.
   */
  async close(timeoutMs: number): Promise<void> {
    this.closed = true;
    this.giveUpAt = Date.now() + LATE_FLUSH_MS;
    await this.until(() => this.queue.every((entry) => entry.sent), timeoutMs);
  }

  /** Waits, up to `timeoutMs`, until every queued event is in the log: the next writer then continues after them. */
  settle(timeoutMs: number): Promise<void> {
    return this.until(() => this.queue.length === 0, timeoutMs);
  }

  private async until(done: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done() && Date.now() < deadline) {
      void this.kick();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
        function finish() {
          clearTimeout(timer);
          resolve();
        }
        this.progress.once('progress', finish);
      });
    }
  }

  private push(event: BaseEvent): void {
    this.shape.see(event);
    this.queue.push({ id: ++this.lastId, event });
    this.kick();
  }

  private kick(): Promise<void> {
    this.flushing ??= this.flush().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /**
   * Appends the queue in order, then sends it. While the log cannot take it (its store is
   * down: appends fail fast), the events are sent at once anyway, so a client is not held up
   * by the outage, and are retried in order until the log takes them.
   */
  private async flush(): Promise<void> {
    for (let pause = RETRY_FIRST_MS; this.queue.length;) {
      const batch = this.queue.slice();
      try {
        await this.log.append(
          this.key,
          batch.filter((entry): entry is Pending & LoggedEvent => entry.id !== undefined),
        );
        this.queue.splice(0, batch.length);
        pause = RETRY_FIRST_MS;
        this.send(batch);
      } catch (error) {
        this.send(batch);
        if (Date.now() >= this.giveUpAt) {
          this.queue.splice(0, batch.length);
          this.send(batch);
          this.onError(error);
          continue;
        }
        await delay(pause, undefined, { ref: false });
        pause = Math.min(pause * 2, RETRY_MAX_MS);
      }
    }
  }

  /** Sends what was not sent yet, in order. */
  private send(entries: readonly Pending[]): void {
    for (const entry of entries) {
      if (entry.sent) continue;
      entry.sent = true;
      for (const listener of this.listeners) listener({ id: entry.id, event: entry.event });
    }
    this.progress.emit('progress');
  }
}
