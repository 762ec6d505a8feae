/** One caller's share of a batch: its value, or the error that refused that caller alone. */
export type BatchOutcome<R> = { ok: true; value: R } | { ok: false; error: Error };

/** Writes a batch in one transaction; answers one outcome per item, in the items' order. */
export type BatchWriter<T, R> = (items: readonly T[]) => Promise<BatchOutcome<R>[]>;

/** What one flush wrote, for a log line or a metric. */
export interface FlushReport {
  /** Items in the batch. */
  size: number;
  /** From the batch's start to its answer, in milliseconds. */
  durationMs: number;
}

interface Waiting<T, R> {
  item: T;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit: the calls that arrive while a batch is being written (or in the same tick as
 * the first) are written together, in one transaction, by the next batch. An idle queue adds no
 * latency: the first call is flushed at once (after the current tick's synchronous work). Each
 * caller's promise settles on its own: an item the writer refuses rejects with its own error and
 * the rest commit; a failed transaction rejects every item of its batch.
 *
 * @example
 * const finishes = new GroupCommit((commands) => writeAll(commands));
 * await finishes.submit(command); // written with whatever else came meanwhile
 */
export class GroupCommit<T, R = void> {
  private waiting: Waiting<T, R>[] = [];
  private flushing = false;

  /**
   * @param write writes a batch; it is never called with more than `maxBatch` items.
   * @param maxBatch the most items per transaction. @default 10000
   * @param onFlushed told after each batch that was answered.
   */
  constructor(
    private readonly write: BatchWriter<T, R>,
    private readonly maxBatch = 10_000,
    private readonly onFlushed?: (report: FlushReport) => void,
  ) {}

  /** Items waiting for the next batch. */
  get pending(): number {
    return this.waiting.length;
  }

  /** Queues `item` for the next batch; settles once that batch is answered. */
  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      // Calls made in the same tick join the first one's batch.
      if (!this.flushing && this.waiting.length === 1) queueMicrotask(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.waiting.length > 0) await this.flush(this.waiting.splice(0, this.maxBatch));
    } finally {
      this.flushing = false;
    }
  }

  private async flush(batch: Waiting<T, R>[]): Promise<void> {
    const startedAt = performance.now();
    let outcomes: BatchOutcome<R>[];
    try {
      outcomes = await this.write(batch.map((entry) => entry.item));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    }
    batch.forEach((entry, i) => {
      const outcome = outcomes[i];
      if (!outcome)
        entry.reject(
          new Error(`batch writer answered ${outcomes.length} outcomes for ${batch.length} items`),
        );
      else if (outcome.ok) entry.resolve(outcome.value);
      else entry.reject(outcome.error);
    });
    this.onFlushed?.({ size: batch.length, durationMs: performance.now() - startedAt });
  }
}
