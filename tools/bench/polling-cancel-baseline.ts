import Redis from 'ioredis';
import type { CancelSignal, Unsubscribe } from 'nest-agent-graceful-shutdown/store';

/**
 * The part of a signal bus the cancel benchmarks drive. `RedisSignalBus` has it, and so does
 * the polling baseline, so both are measured by the same harness.
 */
export interface CancelTransport {
  connect(): Promise<void>;
  close(): Promise<void>;
  publishCancel(signal: CancelSignal): Promise<void>;
  onCancel(threadId: string, runId: string, handler: () => void): Unsubscribe;
}

/** Settings of a {@link PollingCancelBaseline}. */
export interface PollingCancelBaselineOptions {
  url: string;
  /** @default 'agents:' */
  keyPrefix?: string;
  /** How often each run reads its key. @default 100 */
  intervalMs?: number;
  /** How long a cancel key lives. @default 60000 */
  cancelTtlMs?: number;
}

/**
 * The common way to cancel a run on another instance, kept minimal as the benchmarks'
 * baseline: the cancel side sets a key, and every run reads that key on its own timer. A
 * cancel is therefore seen up to one interval late, and Redis serves one GET per run per
 * interval whether anyone cancels or not. Not part of the library.
 */
export class PollingCancelBaseline implements CancelTransport {
  private readonly redis: Redis;
  private readonly keyPrefix: string;
  private readonly intervalMs: number;
  private readonly cancelTtlMs: number;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(options: PollingCancelBaselineOptions) {
    // One client per instance, shared by its runs: the load under test is the GETs, not the sockets.
    this.redis = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    this.keyPrefix = options.keyPrefix ?? 'agents:';
    this.intervalMs = options.intervalMs ?? 100;
    this.cancelTtlMs = options.cancelTtlMs ?? 60_000;
  }

  /** Opens the client; resolves once it is ready. */
  async connect(): Promise<void> {
    await this.redis.connect();
  }

  /** Stops every poll still running and quits the client. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** The key a cancel sets: `<prefix>cancel:<threadId>:<runId>`. */
  cancelKey(threadId: string, runId: string): string {
    return `${this.keyPrefix}cancel:${threadId}:${runId}`;
  }

  async publishCancel(signal: CancelSignal): Promise<void> {
    await this.redis.set(
      this.cancelKey(signal.threadId, signal.runId),
      '1',
      'PX',
      this.cancelTtlMs,
    );
  }

  onCancel(threadId: string, runId: string, handler: () => void): Unsubscribe {
    const key = this.cancelKey(threadId, runId);
    let reading = false;
    const stop = () => {
      clearInterval(timer);
      this.timers.delete(timer);
    };
    const timer = setInterval(() => {
      // A GET still unanswered is not doubled: a slow Redis would otherwise get ever more of them.
      if (reading) return;
      reading = true;
      this.redis.get(key).then(
        (value) => {
          reading = false;
          // The run may have been unsubscribed while its GET was out.
          if (value === null || !this.timers.has(timer)) return;
          stop();
          handler();
        },
        () => {
          // A failed read is retried by the next tick, as polling implementations do.
          reading = false;
        },
      );
    }, this.intervalMs);
    this.timers.add(timer);
    return stop;
  }
}
