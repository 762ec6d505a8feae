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
 * One timer for every stream of one heartbeat period, instead of one timer per stream: ten
 * thousand idle streams cost one interval and a set, not ten thousand timers. The interval runs
 * (unref'd) only while a stream is registered.
 *
 * @example
 * const release = HeartbeatTicker.every(15_000).add(stream); // on close: release()
 */
export class HeartbeatTicker {
  private static readonly tickers = new Map<number, HeartbeatTicker>();
  private readonly targets = new Set<HeartbeatTarget>();
  private timer?: NodeJS.Timeout;

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
    this.timer ??= setInterval(() => this.tick(), Math.max(MIN_TICK_MS, Math.floor(this.periodMs / TICKS_PER_PERIOD))).unref();
    return () => {
      if (!this.targets.delete(target) || this.targets.size > 0) return;
      clearInterval(this.timer);
      this.timer = undefined;
    };
  }

  private tick(): void {
    const now = performance.now();
    for (const target of this.targets) if (now - target.lastWriteAt >= this.periodMs) target.beat();
  }
}
