import type { BaseEvent } from '@ag-ui/core';
import type { Unsubscribe } from './signal-bus.interface.js';

/** One event of a run's log, under its SSE id. */
export interface LoggedEvent {
  /** Positive integer, consecutive within a run across attempts, instances and handovers. */
  id: number;
  event: BaseEvent;
}

/** Names one run's log. */
export interface RunLogKey {
  threadId: string;
  runId: string;
}

/** Receives a followed log's events, in order, each once. */
export interface RunLogListener {
  onEvents(events: readonly LoggedEvent[]): void;
  /** The log cannot be followed any more (its store lost it, or is unreachable for too long). */
  onError?(error: Error): void;
}

/** How an append treats a log that ends before the batch's first event. */
export interface RunLogAppendOptions {
  /**
   * Refuse, storing nothing, a batch whose first new event is more than one above the log's
   * last one, with `EventLogGapError` naming that last id: the store lost events its writer may
   * still hold. Unset, such a batch is stored, and readers see the gap.
   */
  contiguous?: boolean;
}

/**
 * The durable log of every AG-UI event each run emitted, kept `retentionMs` after the run
 * ends, so a client can join a run's stream on any instance and resume it after any event.
 * One writer per run at a time (the thread's lease holder): ids are assigned by the writer.
 * In process memory by default; in Redis Streams with the `/redis` entry.
 */
export interface RunEventLog {
  /**
   * Appends events in id order (each id one more than the one before it). Ids not above the
   * log's last one are skipped: a retried batch already stored. With `writer`, throws
   * `EventLogFencedError` and stores nothing when another writer has claimed the log. With
   * `options.contiguous`, throws `EventLogGapError` and stores nothing when the log ends before
   * the batch's first new event.
   */
  append(
    run: RunLogKey,
    events: readonly LoggedEvent[],
    writer?: string,
    options?: RunLogAppendOptions,
  ): Promise<void>;
  /**
   * Makes `writer` (a run attempt) the log's writer: from now on the appends of any other
   * writer are refused. Returns the log's last event (null when it has none), read in the same step.
   */
  claim(run: RunLogKey, writer: string): Promise<LoggedEvent | null>;
  /** Up to `limit` events with ids above `afterId`, in order; null when the run has no log (never written, or evicted). */
  read(run: RunLogKey, afterId: number, limit: number): Promise<LoggedEvent[] | null>;
  /** The last event of the run's log; null when it has none. */
  last(run: RunLogKey): Promise<LoggedEvent | null>;
  /** Delivers every event with an id above `afterId` as soon as it is appended, until unsubscribed. */
  follow(run: RunLogKey, afterId: number, listener: RunLogListener): Unsubscribe;
  /** The run ended: its log is evicted `retentionMs` milliseconds from now (a later append keeps it). */
  retain(run: RunLogKey, retentionMs: number): Promise<void>;
}

export { RUN_EVENT_LOG } from '../tokens/graceful-shutdown.tokens.js';

/** An event as a connection receives it: with its log id, or without one for a notice of that connection. */
export interface ChannelEvent {
  id?: number;
  event: BaseEvent;
}
