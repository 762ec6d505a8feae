/**
 * One interval timer for every task of one period, instead of a timer per task: a thousand
 * joined streams checking their run cost one timer. The timer runs (unref'd) only while a task
 * is registered; each task is called once per period, in registration order.
 *
 * @example
 * const stop = SharedInterval.every(1_000).add(() => void check()); // later: stop()
 */
export class SharedInterval {
  private static readonly intervals = new Map<number, SharedInterval>();
  private readonly tasks = new Set<() => void>();
  private timer?: NodeJS.Timeout;

  private constructor(private readonly periodMs: number) {}

  /** The shared interval of period `periodMs` milliseconds. */
  static every(periodMs: number): SharedInterval {
    let interval = this.intervals.get(periodMs);
    if (!interval) this.intervals.set(periodMs, (interval = new SharedInterval(periodMs)));
    return interval;
  }

  /** Tasks registered now. */
  get size(): number {
    return this.tasks.size;
  }

  /** Calls `task` every period until the returned function is called (safe to call twice). */
  add(task: () => void): () => void {
    // A wrapper per registration, so one function registered twice is two tasks.
    const entry = () => task();
    this.tasks.add(entry);
    this.timer ??= setInterval(() => this.tasks.forEach((run) => run()), this.periodMs).unref();
    return () => {
      if (!this.tasks.delete(entry) || this.tasks.size > 0) return;
      clearInterval(this.timer);
      this.timer = undefined;
    };
  }
}
