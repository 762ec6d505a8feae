import { EventType, type BaseEvent } from '@ag-ui/core';
import type { SseEventStream } from '../http/sse-event-stream.js';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';
import type { LoggedEvent, RunEventLog, RunLogKey } from '../contracts/run-event-log.interface.js';
import { SharedInterval } from '../http/shared-interval.js';
import { isTerminal } from './stream-shape.js';
import { readAsOneRun } from './run-attempts.js';

const REPLAY_PAGE = 1_000;

/** What a joined stream asks about its run while it waits for events. */
export interface RunLiveness {
  /** How often to ask, in milliseconds. */
  intervalMs: number;
  /** Ask once at the start too, not only after the first interval: the run was not active when the join began. */
  checkAtStart?: boolean;
  /**
   * Undefined while the run goes on (or will be continued); else the notice that ends the join,
   * or null to just end it. `last` is the log's last event (null: none).
   */
  check(last: LoggedEvent | null): Promise<BaseEvent | null | undefined>;
}

/**
 * One client following a run's log: the events after its last id, then the live ones, each
 * once, until the terminal event. A gap in the ids (the log's store lost events), or a run that
 * stopped while its log ends before the stream's cursor, ends the connection without a terminal
 * event, so the client's next join gets the clear answer; while the run goes on, a log that
 * fell behind the cursor is waited for, as its writer appends the lost events again.
 *
 * The log is read as one run across its attempts (see `readAsOneRun`): a `RUN_ERROR` ends the
 * stream only once nothing follows it in the log and the run is not going on, so an attempt
 * that a retry continued reads as a `run_interrupted` notice and the stream goes on to the
 * run's current end.
 */
export class JoinedStream {
  private cursor: number;
  private unfollow?: Unsubscribe;
  private stopChecks?: () => void;
  private finished = false;
  /** A liveness check is under way: a slow store must not stack them up. */
  private checking = false;
  /** A `RUN_ERROR` read and not written yet: the run's end, or an attempt's that a later one continued. */
  private held?: LoggedEvent;
  /** Whether `held` is being settled. */
  private settling = false;
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
    this.unfollow = this.log.follow(this.key, this.cursor, {
      onEvents: (events) => this.deliver(events),
      onError: () => this.end(),
    });
    // One timer for all joins of this period, not one per join.
    this.stopChecks = SharedInterval.every(this.liveness.intervalMs).add(
      () => void this.checkLiveness(),
    );
    if (this.liveness.checkAtStart) void this.checkLiveness();
  }

  /** Ends the connection with the handover notice: the client joins again, after `lastEventId`, anywhere. */
  handOver(): void {
    if (this.finished) return;
    const { threadId, runId } = this.key;
    this.sse.write({
      event: {
        type: EventType.CUSTOM,
        name: 'handover',
        value: { threadId, runId, lastEventId: this.cursor },
      } as BaseEvent,
    });
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
      // The log goes on after the held RUN_ERROR: a later attempt continued the run.
      if (this.held && entry.id === this.held.id + 1) this.release(true);
      if (entry.id <= this.cursor || entry.id === this.held?.id) continue;
      if (entry.id !== this.cursor + 1) return this.end();
      if (entry.event.type === EventType.RUN_ERROR) {
        this.held = entry;
        continue;
      }
      this.write(entry);
      if (isTerminal(entry.event)) return this.end();
    }
    if (this.held) void this.settleHeld();
  }

  private write(entry: LoggedEvent, continued = false): void {
    this.sse.write(readAsOneRun(entry, continued));
    this.cursor = entry.id;
  }

  /** Writes the held `RUN_ERROR`: as an attempt's end (`continued`), or as the run's, which ends the stream. */
  private release(continued: boolean): void {
    const held = this.held!;
    this.held = undefined;
    this.write(held, continued);
    if (!continued) this.end();
  }

  /**
   * Decides what the held `RUN_ERROR` is: an attempt's end when the log has an event after it,
   * the run's end when the run is not going on; while it is (a retry was admitted and has not
   * written yet, or a continuation in resume mode `auto` is awaited) it stays held.
   */
  private async settleHeld(): Promise<void> {
    const held = this.held;
    if (!held || this.settling) return;
    this.settling = true;
    try {
      const next = await this.log.read(this.key, held.id, 1);
      if (this.held !== held || this.finished) return;
      if (next?.length) return this.deliver(next);
      if ((await this.liveness.check(held)) === undefined || this.held !== held || this.finished)
        return;
      this.release(false);
    } catch {
      // A failed read is asked again at the next liveness check.
    } finally {
      this.settling = false;
    }
    // What the events after it brought may hold another one.
    if (this.held && this.held !== held) void this.settleHeld();
  }

  private async checkLiveness(): Promise<void> {
    if (this.finished || this.checking) return;
    if (this.held) return this.settleHeld();
    this.checking = true;
    try {
      const last = await this.log.last(this.key);
      // A log that now ends before this stream's cursor lost events its store had (a failover, a restart).
      const behind = (last?.id ?? 0) < this.cursor;
      // Events the follow did not bring (a log whose live delivery stays on the writer's instance) come now.
      if ((last?.id ?? 0) > this.cursor)
        this.deliver((await this.log.read(this.key, this.cursor, REPLAY_PAGE)) ?? []);
      if (this.finished) return;
      // While the run goes on, its writer appends the lost events again (or its next event shows the gap).
      const notice = await this.liveness.check(last);
      if (notice === undefined || this.finished) return;
      // The run stopped and its log lost its end: the client's next join gets the clear answer.
      if (behind) return this.end();
      // The run stopped: what its log got meanwhile comes first, its own terminal event included.
      this.deliver((await this.log.read(this.key, this.cursor, REPLAY_PAGE)) ?? []);
      if (this.finished) return;
      if (this.held) return this.release(false);
      if (notice) this.sse.write({ event: notice });
      this.end();
    } catch {
      // A failed check (store or log unreachable) is asked again at the next interval.
    } finally {
      this.checking = false;
    }
  }
}
