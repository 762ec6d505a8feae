/**
 * Runs async jobs one after another. SQLite has one connection and one writer, and
 * TypeORM would nest concurrent transactions on it as savepoints of one another, so
 * the embedded store passes its transactions through here.
 */
export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const result = this.tail.then(job);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
