/**
 * Wakes a loop that waits for something to change in this process: a nudge resolves every
 * current wait at once, and a wait with nobody nudging still ends at its deadline, so a
 * missed nudge costs time, never a hang.
 */
export class LoopNudge {
  private waiters = new Set<() => void>();

  /** Resolves at the next {@link nudge}, or after `timeoutMs` milliseconds; the timer never holds the process. */
  wait(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      this.waiters.add(done);
    });
  }

  /** Ends every current wait. */
  nudge(): void {
    for (const done of [...this.waiters]) done();
  }
}
