import { setTimeout as delay } from 'node:timers/promises';
import { EventLogFencedError } from '../errors/event-log-fenced.error.js';
import { EventLogGapError } from '../errors/event-log-gap.error.js';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';
import { EventLogger } from '../logging/event-logger.js';
import { LoopNudge } from './loop-nudge.js';
import type {
  ChannelEvent,
  LoggedEvent,
  RunEventLog,
  RunLogKey,
} from '../contracts/run-event-log.interface.js';

export type { ChannelEvent } from '../contracts/run-event-log.interface.js';

/** An event on its way: `sent` once it reached the connections (before the log took it, during an outage of the log). */
interface Pending extends ChannelEvent {
  sent?: boolean;
}

const logger = new EventLogger('RunEventLog');

/** How many of its latest stored events a writer keeps, to append again what its log's store lost. */
export const REFILL_TAIL = 1_000;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 2_000;
/** How long, after an attempt ends, its last events are still offered to a log that is down, in milliseconds. */
const LATE_FLUSH_MS = 60_000;

/**
 * Writes one run attempt's events to the run's log, in order and batched, and only then sends
 * them to the attempt's connections, so an event a client saw is in the log. While the log's
 * store is down (appends fail fast) the events are sent at once anyway and retried in order
 * until the log takes them. Once a newer attempt claimed the log, nothing more is stored: the
 * events go to this attempt's connections only, without ids.
 *
 * A claimed writer's appends are contiguous: a store that lost its latest events (a Redis
 * failover that dropped writes not yet replicated, a restart without persistence) refuses them,
 * and the writer appends the lost events again from the last {@link REFILL_TAIL} it stored, so
 * the log stays whole and its readers see no gap. Events older than that are lost for good: the
 * batch is stored after the gap, which its readers then see.
 */
export class LogWriter {
  /** The attempt whose claim the appends carry; unset while the log could not be claimed. */
  writer?: string;
  private readonly listeners = new Set<(event: ChannelEvent) => void>();
  private readonly queue: Pending[] = [];
  /** Nudged whenever events were sent or stored: what `close` and `settle` wait on. */
  private readonly progress = new LoopNudge();
  private flushing?: Promise<void>;
  private giveUpAt = Infinity;
  private logDown = false;
  private fencedOff = false;
  /** The latest events this writer stored, oldest first, at most {@link REFILL_TAIL}. */
  private readonly stored: LoggedEvent[] = [];
  /** The store lost events older than the tail: the next batch is stored after the gap. */
  private acceptGap = false;

  constructor(
    private readonly log: RunEventLog,
    private readonly key: RunLogKey,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** True once a newer attempt claimed the log. */
  get fenced(): boolean {
    return this.fencedOff;
  }

  subscribe(listener: (event: ChannelEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Queues an event: a logged one (with its id) or a notice of the connections (without). */
  enqueue(entry: ChannelEvent): void {
    const pending: Pending = { ...entry };
    this.queue.push(pending);
    // While the log is down, events reach the connections at once rather than after the next retry.
    if (this.logDown) this.send([pending]);
    void this.kick();
  }

  /**
   * Waits, up to `timeoutMs`, until every queued event has reached the connections. Events the
   * log has not taken yet are still appended in the background, for up to a minute; past that
   * they are reported to `onError`.
   */
  async close(timeoutMs: number): Promise<void> {
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
      await this.progress.wait(deadline - Date.now());
    }
  }

  private kick(): Promise<void> {
    this.flushing ??= this.flush().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async flush(): Promise<void> {
    for (let pause = RETRY_FIRST_MS; this.queue.length;) {
      const batch = this.queue.slice();
      const logged = batch.flatMap(({ id, event }): LoggedEvent[] =>
        id === undefined ? [] : [{ id, event }],
      );
      try {
        await this.log.append(this.key, logged, this.writer, {
          contiguous: this.writer !== undefined && !this.acceptGap,
        });
        this.acceptGap = false;
        this.queue.splice(0, batch.length);
        this.keep(logged);
        this.logDown = false;
        pause = RETRY_FIRST_MS;
        this.send(batch);
      } catch (error) {
        if (error instanceof EventLogFencedError) {
          this.fenceOff(error);
          continue;
        }
        if (error instanceof EventLogGapError) {
          this.refill(error.lastId);
          continue;
        }
        this.logDown = true;
        this.send(this.queue);
        if (Date.now() >= this.giveUpAt) {
          this.queue.splice(0, batch.length);
          this.onError(error);
          continue;
        }
        await delay(pause, undefined, { ref: false });
        pause = Math.min(pause * 2, RETRY_MAX_MS);
      }
    }
  }

  /** Remembers what was stored, up to the tail's bound. */
  private keep(logged: readonly LoggedEvent[]): void {
    this.stored.push(...logged);
    if (this.stored.length > REFILL_TAIL) this.stored.splice(0, this.stored.length - REFILL_TAIL);
  }

  /**
   * The log ends at `lastId`, before what is queued: what this writer stored after it goes
   * before the queue again (already sent, so only stored), or, when the tail no longer holds it
   * all, the queue is stored after the gap.
   */
  private refill(lastId: number): void {
    const from = this.stored.findIndex((entry) => entry.id === lastId + 1);
    if (from === -1) {
      this.acceptGap = true;
      this.onError(new EventLogGapError(this.key.threadId, this.key.runId, lastId));
      return;
    }
    const lost = this.stored.splice(from);
    this.queue.unshift(...lost.map((entry): Pending => ({ ...entry, sent: true })));
    logger.warn('run event log lost events, appending them again', {
      ...this.key,
      fromId: lost[0].id,
      toId: lost.at(-1)!.id,
    });
  }

  /** A newer attempt owns the log: what is queued goes to this attempt's connections only, as notices. */
  private fenceOff(error: EventLogFencedError): void {
    this.fencedOff = true;
    this.onError(error);
    const queued = this.queue.splice(0);
    this.send(queued.map((entry) => (entry.sent ? entry : { event: entry.event })));
  }

  /** Sends what was not sent yet, in order. */
  private send(entries: readonly Pending[]): void {
    for (const entry of entries) {
      if (entry.sent) continue;
      entry.sent = true;
      for (const listener of this.listeners) listener({ id: entry.id, event: entry.event });
    }
    this.progress.nudge();
  }
}
