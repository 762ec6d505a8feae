import type { EventLogger } from '../logging/event-logger.js';
import type {
  LoggedEvent,
  RunLogKey,
  RunLogListener,
} from '../contracts/run-event-log.interface.js';

/** One follow of a log: its listener, and the id of the last event it was given. */
interface Follower {
  cursor: number;
  readonly listener: RunLogListener;
}

/** The follows of one log key. */
interface FollowedLog {
  readonly run: RunLogKey;
  readonly followers: Set<Follower>;
}

/**
 * The follows of one log instance, by log key: what one shared read must ask for (each key
 * after the lowest cursor of its followers), and to whom what it read is due (each follower
 * only the events after its own cursor, so each gets every event once and in order).
 */
export class RunLogFollowers {
  private readonly logs = new Map<string, FollowedLog>();

  constructor(private readonly logger: EventLogger) {}

  /** How many log keys are followed. */
  get size(): number {
    return this.logs.size;
  }

  /** Follows `key` after event `afterId`; returns the removal, which may be called more than once. */
  add(key: string, run: RunLogKey, afterId: number, listener: RunLogListener): () => void {
    const follower: Follower = { cursor: afterId, listener };
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = { run, followers: new Set() }));
    log.followers.add(follower);
    return () => {
      const current = this.logs.get(key);
      if (!current?.followers.delete(follower)) return;
      if (current.followers.size === 0) this.logs.delete(key);
    };
  }

  /** The id each followed key must be read after: the lowest cursor of its followers. */
  cursors(): Map<string, number> {
    const cursors = new Map<string, number>();
    for (const [key, log] of this.logs) {
      let lowest = Infinity;
      for (const follower of log.followers) lowest = Math.min(lowest, follower.cursor);
      cursors.set(key, lowest);
    }
    return cursors;
  }

  /**
   * Hands out the events read from `key` after id `from`. A follower whose cursor is below
   * `from` joined after the read began and needs events before these: it gets them from the
   * next read instead, so nobody sees a hole. A listener that throws is logged and keeps its
   * place: the others are served regardless.
   */
  deliver(key: string, from: number, events: readonly LoggedEvent[]): void {
    const log = this.logs.get(key);
    if (!log || events.length === 0) return;
    for (const follower of [...log.followers]) {
      // Unsubscribed by another listener during this delivery.
      if (!log.followers.has(follower) || follower.cursor < from) continue;
      const fresh = events.filter((logged) => logged.id > follower.cursor);
      if (fresh.length === 0) continue;
      follower.cursor = fresh[fresh.length - 1].id;
      try {
        follower.listener.onEvents(fresh);
      } catch (error) {
        this.logger.warn('run log listener failed', {
          threadId: log.run.threadId,
          runId: log.run.runId,
          error: String(error),
        });
      }
    }
  }

  /** Tells the followers of `key` that its log cannot be followed any more, and drops them. */
  fail(key: string, error: Error): void {
    const log = this.logs.get(key);
    if (!log) return;
    this.logs.delete(key);
    for (const follower of log.followers) {
      try {
        follower.listener.onError?.(error);
      } catch (thrown) {
        this.logger.warn('run log listener failed', {
          threadId: log.run.threadId,
          runId: log.run.runId,
          error: String(thrown),
        });
      }
    }
  }

  /** Forgets every follow, e.g. when the log closes. */
  clear(): void {
    this.logs.clear();
  }
}
