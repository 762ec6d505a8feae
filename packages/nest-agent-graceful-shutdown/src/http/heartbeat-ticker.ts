import { SharedInterval } from './shared-interval.js';

/** A connection the ticker keeps alive: when it last wrote, and how it writes a heartbeat. */
export interface HeartbeatTarget {
  /** `performance.now()` of its last write. */
  readonly lastWriteAt: number;
  beat(): void;
}

/** How many ticks per period: a heartbeat goes out after between 1 and 1.25 periods of silence. */
const TICKS_PER_PERIOD = 4;
const MIN_TICK_MS = 10;

/**
 * The heartbeats of every stream of one period from one timer, instead of one timer per
 * stream: ten thousand idle streams cost one interval (a `SharedInterval` ticking four times a
 * period, unref'd, running only while a stream is registered) and a set, not ten thousand timers.
 *
 * @example
 * const release = HeartbeatTicker.every(15_000).add(stream); // on close: release()
 */
export class HeartbeatTicker {
  private static readonly tickers = new Map<number, HeartbeatTicker>();
  private readonly targets = new Set<HeartbeatTarget>();
  private stopTicking?: () => void;

  private constructor(private readonly periodMs: number) {}

  /** The shared ticker of streams whose heartbeat period is `periodMs` milliseconds. */
  static every(periodMs: number): HeartbeatTicker {
    let ticker = this.tickers.get(periodMs);
    if (!ticker) this.tickers.set(periodMs, (ticker = new HeartbeatTicker(periodMs)));
    return ticker;
  }

  /** Streams registered now. */
  get size(): number {
    return this.targets.size;
  }

  /** Beats `target` whenever it was silent for a period; the returned release is safe to call twice. */
  add(target: HeartbeatTarget): () => void {
    this.targets.add(target);
    this.stopTicking ??= SharedInterval.every(
      Math.max(MIN_TICK_MS, Math.floor(this.periodMs / TICKS_PER_PERIOD)),
    ).add(() => this.tick());
    return () => {
      if (!this.targets.delete(target) || this.targets.size > 0) return;
      this.stopTicking?.();
      this.stopTicking = undefined;
    };
  }

  private tick(): void {
    const now = performance.now();
    for (const target of this.targets) if (now - target.lastWriteAt >= this.periodMs) target.beat();
  }
}
