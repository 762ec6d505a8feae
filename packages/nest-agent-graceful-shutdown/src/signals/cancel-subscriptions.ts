import type { CancelSignal } from '../contracts/signal-bus.interface.js';

/**
 * The runs of this instance that listen for a cancel, each with a count of listeners.
 * After a lost pub/sub connection the bus asks Redis about exactly these runs, since a
 * cancel published meanwhile never reached this instance.
 */
export class CancelSubscriptions {
  private readonly counts = new Map<string, { run: CancelSignal; count: number }>();

  /** Number of distinct runs listening. */
  get size(): number {
    return this.counts.size;
  }

  /** Counts one listener of the run; the returned release is safe to call twice. */
  add(threadId: string, runId: string): () => void {
    const id = JSON.stringify([threadId, runId]);
    const entry = this.counts.get(id) ?? { run: { threadId, runId }, count: 0 };
    entry.count++;
    this.counts.set(id, entry);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--entry.count === 0 && this.counts.get(id) === entry) this.counts.delete(id);
    };
  }

  /** The listening runs, at most `size` per batch, so one re-sync command stays bounded. */
  *batches(size: number): Generator<CancelSignal[]> {
    let batch: CancelSignal[] = [];
    for (const { run } of this.counts.values()) {
      batch.push(run);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }
}
