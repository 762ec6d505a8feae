/**
 * Runs one run's store writes one after another, in call order, even when its tool calls run
 * concurrently: a thread's messages keep a single order and no two writes of a run race.
 */
export class SerialWrites {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `write` after every write queued before it; settles as it does. */
  run<T>(write: () => Promise<T>): Promise<T> {
    const next = this.tail.then(write, write);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Resolves once every queued write has settled. */
  async idle(): Promise<void> {
    await this.tail;
  }
}
