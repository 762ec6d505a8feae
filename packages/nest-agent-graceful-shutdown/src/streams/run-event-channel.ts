import { EventType, type BaseEvent } from '@ag-ui/core';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';
import { LogWriter, type ChannelEvent } from './log-writer.js';
import type { LoggedEvent, RunEventLog, RunLogKey } from '../contracts/run-event-log.interface.js';
import { isTerminal, StreamShape } from './stream-shape.js';

export type { ChannelEvent } from './log-writer.js';

const REPLAY_PAGE = 1_000;

/**
 * One run attempt's events on their way out: each gets the next id of the run's log, is
 * appended to the log, and only then reaches the attempt's connections (see `LogWriter`). So a
 * client that re-joins after any id it saw misses nothing, whichever instance writes next. It
 * also keeps the stream well formed across attempts: what an earlier attempt left open is
 * closed, and a run segment is never started twice.
 */
export class RunEventChannel {
  private readonly out: LogWriter;
  private lastId: number;
  private closed = false;
  /** What an earlier attempt left open is closed in the log before this attempt's first event. */
  private inheritedOpen = false;

  private constructor(
    private readonly log: RunEventLog,
    private readonly key: RunLogKey,
    private shape: StreamShape,
    lastId: number,
    private readonly onError: (error: unknown) => void,
    /** The log lost the run's earlier events: this attempt's events get no ids and are not logged. */
    private readonly unlogged = false,
  ) {
    this.lastId = lastId;
    this.out = new LogWriter(log, key, onError);
  }

  /**
   * Opens the run's log for a new attempt, before the attempt is recorded: ids continue after
   * its last event. The first attempt of a run starts at id 1 even while the log is unreachable
   * (it catches up later); a later attempt cannot know where to continue then, and the open
   * fails. Nothing is written until `activate`. `firstAttempt` is asked only when the log is out of reach.
   * A `fresh` run (its thread is new) has no log to read: the open reads nothing.
   *
   * An empty log for a run that `continues` (an earlier attempt wrote to it) lost its events: its
   * store restarted empty, or retention dropped it. Ids restarted at 1 would repeat ids its
   * clients already saw, and a join after one of them would wait for events that never come.
   * So that attempt logs nothing and its events reach its own connections without ids; a join
   * of the run gets 410 (the log is incomplete), and the client falls back to the thread's
   * status and messages, which the store kept.
   */
  static async open(
    log: RunEventLog,
    key: RunLogKey,
    options: {
      firstAttempt: () => Promise<boolean>;
      continues?: boolean;
      fresh?: boolean;
      onError?: (error: unknown) => void;
    },
  ): Promise<RunEventChannel> {
    const onError = options.onError ?? (() => undefined);
    let last: LoggedEvent | null;
    try {
      // A run of a thread that did not exist has no log yet: nothing to read (`activate`'s claim reads it anyway).
      last = options.fresh ? null : await log.last(key);
    } catch (error) {
      // Asked only now: whether the run had an attempt before costs a read the usual start does not need.
      if (!(await options.firstAttempt())) throw error;
      onError(error);
      last = null;
    }
    const unlogged = last === null && options.continues === true;
    return new RunEventChannel(
      log,
      key,
      await shapeOf(log, key, last),
      last?.id ?? 0,
      onError,
      unlogged,
    );
  }

  /**
   * The attempt is recorded (it holds the thread's lease): it claims the log, so the appends of
   * an older attempt still running somewhere (paused past its lease) are refused from now on.
   * What an earlier attempt left open (a handover, a crash) is closed with the attempt's first
   * event: after the `RUN_STARTED` its connection gets, so that connection's stream is well formed.
   */
  async activate(writer: string): Promise<void> {
    if (this.unlogged) return;
    try {
      const last = await this.log.claim(this.key, writer);
      if ((last?.id ?? 0) !== this.lastId) {
        // An older attempt appended after `open` read the log: continue after what it wrote.
        this.shape = await shapeOf(this.log, this.key, last);
        this.lastId = last?.id ?? 0;
      }
      this.out.writer = writer;
    } catch (error) {
      this.onError(error);
    }
    this.inheritedOpen = true;
  }

  /** True while the run's log has a segment open: a continuation must not start another. */
  get continuing(): boolean {
    return this.shape.started;
  }

  /** Listens to the attempt's events, logged or notices, in order. */
  subscribe(listener: (event: ChannelEvent) => void): Unsubscribe {
    return this.out.subscribe(listener);
  }

  /**
   * Logs and sends one event. A `RUN_STARTED` inside a segment still open (a client's retry of
   * a run handed over or crashed) only tells this attempt's connection; a terminal event first
   * closes the steps left open.
   */
  readonly emit = (event: BaseEvent): void => {
    if (this.closed) return;
    const restart = event.type === EventType.RUN_STARTED && this.shape.started;
    if (restart) this.notice(event);
    if (this.inheritedOpen) {
      this.inheritedOpen = false;
      this.closeOpen();
    }
    if (restart) return;
    if (isTerminal(event)) for (const closing of this.shape.closingEvents()) this.push(closing);
    this.push(event);
  };

  /** Sends an event to this attempt's connections only, without an id, after those queued before it. */
  notice(event: BaseEvent): void {
    this.out.enqueue({ event });
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
    this.notice({
      type: EventType.CUSTOM,
      name: 'handover',
      value: { threadId, runId, lastEventId: this.lastId },
    } as BaseEvent);
  }

  /**
   * Stops taking events; waits, up to `timeoutMs`, until every one has reached the connections
   * (see `LogWriter.close`), then keeps the log `retentionMs` from now (a later attempt's
   * append keeps it longer).
   */
  async close(timeoutMs: number, retentionMs: number): Promise<void> {
    this.closed = true;
    await this.out.close(timeoutMs);
    await this.log.retain(this.key, retentionMs).catch((error: unknown) => this.onError(error));
  }

  /** Waits, up to `timeoutMs`, until every queued event is in the log: the next writer then continues after them. */
  settle(timeoutMs: number): Promise<void> {
    return this.out.settle(timeoutMs);
  }

  private push(event: BaseEvent): void {
    this.shape.see(event);
    this.out.enqueue(this.out.fenced || this.unlogged ? { event } : { id: ++this.lastId, event });
  }
}

/** What a run's log has left open, read from the log when its last event is not terminal. */
async function shapeOf(
  log: RunEventLog,
  key: RunLogKey,
  last: LoggedEvent | null,
): Promise<StreamShape> {
  const shape = new StreamShape();
  if (!last || isTerminal(last.event)) return shape;
  for (
    let after = 0, page: LoggedEvent[] | null;
    (page = await log.read(key, after, REPLAY_PAGE))?.length;
    after = page.at(-1)!.id
  ) {
    for (const { event } of page) shape.see(event);
  }
  return shape;
}
