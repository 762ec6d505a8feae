import { EventEmitter } from 'node:events';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';
import { EventLogFencedError } from '../errors/event-log-fenced.error.js';
import { EventLogGapError } from '../errors/event-log-gap.error.js';
import { deliverSafely } from '../contracts/deliver-safely.js';
import type {
  LoggedEvent,
  RunEventLog,
  RunLogAppendOptions,
  RunLogKey,
  RunLogListener,
} from '../contracts/run-event-log.interface.js';

/** One run's events in memory. */
interface MemoryLog {
  events: LoggedEvent[];
  /** The attempt that claimed the log last. */
  writer?: string;
  /** Epoch milliseconds after which the log is evicted; unset while the run goes on. */
  expiresAt?: number;
}

const keyOf = (run: RunLogKey) => `${run.threadId}\u0000${run.runId}`;

/**
 * Run event logs in this process's memory: enough for one instance (an embedded store), and
 * lost with the process. Evicts lazily and from one periodic sweep, never from a timer per run.
 */
export class InMemoryRunEventLog implements RunEventLog {
  private readonly logs = new Map<string, MemoryLog>();
  private readonly appended = new EventEmitter().setMaxListeners(0);
  private lastSweep = 0;

  /** @param now the clock, in epoch milliseconds; tests inject one. */
  constructor(private readonly now: () => number = Date.now) {}

  async append(
    run: RunLogKey,
    events: readonly LoggedEvent[],
    writer?: string,
    options?: RunLogAppendOptions,
  ): Promise<void> {
    const key = keyOf(run);
    const log = this.live(key) ?? { events: [] };
    if (writer !== undefined && log.writer !== undefined && log.writer !== writer)
      throw new EventLogFencedError(run.threadId, run.runId);
    const top = log.events.at(-1)?.id ?? 0;
    // A retry of a batch already stored: skipped.
    const fresh = events.filter((entry) => entry.id > top);
    if (fresh.length === 0) return;
    if (options?.contiguous && fresh[0].id > top + 1)
      throw new EventLogGapError(run.threadId, run.runId, top);
    log.events.push(...fresh);
    log.expiresAt = undefined;
    this.logs.set(key, log);
    this.appended.emit(key, fresh);
    this.sweep();
  }

  async claim(run: RunLogKey, writer: string): Promise<LoggedEvent | null> {
    const key = keyOf(run);
    const log = this.live(key) ?? { events: [] };
    log.writer = writer;
    this.logs.set(key, log);
    return log.events.at(-1) ?? null;
  }

  async read(run: RunLogKey, afterId: number, limit: number): Promise<LoggedEvent[] | null> {
    const log = this.live(keyOf(run));
    return log ? after(log.events, afterId).slice(0, limit) : null;
  }

  async last(run: RunLogKey): Promise<LoggedEvent | null> {
    return this.live(keyOf(run))?.events.at(-1) ?? null;
  }

  follow(run: RunLogKey, afterId: number, listener: RunLogListener): Unsubscribe {
    const key = keyOf(run);
    let cursor = afterId;
    const deliver = (events: readonly LoggedEvent[]) => {
      const fresh = after(events, cursor);
      if (fresh.length === 0) return;
      cursor = fresh.at(-1)!.id;
      deliverSafely(listener, fresh);
    };
    let caughtUp = false;
    const onAppend = (events: readonly LoggedEvent[]) => caughtUp && deliver(events);
    this.appended.on(key, onAppend);
    // The stored events after `afterId` first (they include whatever is appended until then).
    queueMicrotask(() => {
      caughtUp = true;
      deliver(this.live(key)?.events ?? []);
    });
    return () => this.appended.off(key, onAppend);
  }

  async retain(run: RunLogKey, retentionMs: number): Promise<void> {
    const log = this.logs.get(keyOf(run));
    if (log) log.expiresAt = this.now() + retentionMs;
  }

  /** Runs with a log in memory (evicted ones excluded once swept). */
  get size(): number {
    return this.logs.size;
  }

  private live(key: string): MemoryLog | undefined {
    const log = this.logs.get(key);
    if (log?.expiresAt !== undefined && log.expiresAt <= this.now()) {
      this.logs.delete(key);
      return undefined;
    }
    return log;
  }

  /** At most once a second, drops every expired log. */
  private sweep(): void {
    const now = this.now();
    if (now - this.lastSweep < 1_000) return;
    this.lastSweep = now;
    for (const [key, log] of this.logs)
      if (log.expiresAt !== undefined && log.expiresAt <= now) this.logs.delete(key);
  }
}

/** The events with ids above `afterId` (ids are consecutive, so the index is computed). */
function after(events: readonly LoggedEvent[], afterId: number): LoggedEvent[] {
  if (events.length === 0) return [];
  const start = Math.max(0, afterId - events[0].id + 1);
  return events.slice(start);
}
