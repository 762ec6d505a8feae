/** A job waiting in a `WriteQueue`, with how to settle its caller's promise. */
interface QueuedJob {
  start(): Promise<unknown>;
}

/**
 * Runs async jobs one after another. SQLite has one connection and one writer, and
 * TypeORM would nest concurrent transactions on it as savepoints of one another, so
 * the embedded store passes its transactions through here.
 *
 * Urgent jobs (lease renewals) run as soon as the job in flight ends, before every ordinary
 * job already waiting: a renewal queued behind a burst of checkpoints would otherwise wait
 * for all of them, and healthy runs would lose their leases under load.
 */
export class WriteQueue {
  private readonly ordinary: QueuedJob[] = [];
  private readonly urgent: QueuedJob[] = [];
  private busy = false;

  /** Runs `job` after the others; with `urgent`, right after the job in flight and earlier urgent ones. */
  run<T>(job: () => Promise<T>, options: { urgent?: boolean } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        const result = Promise.resolve().then(job);
        result.then(resolve, reject);
        return result;
      };
      (options.urgent ? this.urgent : this.ordinary).push({ start });
      this.next();
    });
  }

  /** How many jobs wait, not counting the one in flight. */
  get waiting(): number {
    return this.urgent.length + this.ordinary.length;
  }

  private next(): void {
    if (this.busy) return;
    const job = this.urgent.shift() ?? this.ordinary.shift();
    if (!job) return;
    this.busy = true;
    void job
      .start()
      .catch(() => undefined)
      .finally(() => {
        this.busy = false;
        this.next();
      });
  }
}
