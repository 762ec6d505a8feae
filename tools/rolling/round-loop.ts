import { performance } from 'node:perf_hooks';

/**
 * Runs `round` again and again, a round starting every `periodMs` (or at once when the last one
 * took longer), until stopped: the probing and scraping loops of the proofs. `stop()` cuts the
 * pause short and waits for the round in flight.
 */
export class RoundLoop {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly round: () => Promise<unknown>,
    private readonly periodMs: number,
  ) {}

  /** True from `start()` until `stop()`: a round may check it before a change it should not make once stopped. */
  get active(): boolean {
    return this.running;
  }

  /** Starts the rounds; a second call while running does nothing. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Starts the next round now instead of after the pause (no effect during a round). */
  nudge(): void {
    this.wake?.();
  }

  /** Stops after the round in flight, and waits for it. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      const startedAt = performance.now();
      await this.round();
      if (!this.running) break;
      const pause = Math.max(0, this.periodMs - (performance.now() - startedAt));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}
