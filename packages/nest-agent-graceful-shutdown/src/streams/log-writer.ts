import { setTimeout as delay } from 'node:timers/promises';
import { EventLogFencedError } from '../errors/event-log-fenced.error.js';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';
import { LoopNudge } from './loop-nudge.js';
import type { ChannelEvent, LoggedEvent, RunEventLog, RunLogKey } from '../contracts/run-event-log.interface.js';

export type { ChannelEvent } from '../contracts/run-event-log.interface.js';

/** An event on its way: `sent` once it reached the connections (before the log took it, during an outage of the log). */
interface Pending extends ChannelEvent {
  sent?: boolean;
}

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
      try {
        const logged = batch.filter((entry): entry is Pending & LoggedEvent => entry.id !== undefined);
        await this.log.append(this.key, logged, this.writer);
        this.queue.splice(0, batch.length);
        this.logDown = false;
        pause = RETRY_FIRST_MS;
        this.send(batch);
      } catch (error) {
        if (error instanceof EventLogFencedError) {
          this.fenceOff(error);
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
