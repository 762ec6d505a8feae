import prand, { type RandomGenerator } from 'pure-rand';

/**
 * A stream of random numbers fully determined by a 32-bit seed (xoroshiro128+ from
 * `pure-rand`): the same seed draws the same numbers on every machine and every run.
 * {@link fork} gives an independent stream, so one consumer drawing more or fewer numbers
 * never shifts what another one draws.
 *
 * @example
 * const faults = new SeededStream(42);
 * const users = faults.fork();
 * faults.int(1, 6); // the same on every run with seed 42, however much `users` draws
 */
export class SeededStream {
  private readonly rng: RandomGenerator;

  /** @param seed an integer; it is taken modulo 2^32 by the generator. */
  constructor(seed: number | RandomGenerator) {
    this.rng = typeof seed === 'number' ? prand.xoroshiro128plus(seed) : seed;
  }

  /** An integer in `[min, max]`, both included. */
  int(min: number, max: number): number {
    return prand.unsafeUniformIntDistribution(min, max, this.rng);
  }

  /** One element of `items` (not empty). */
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)];
  }

  /** `items` in a random order (a new array). */
  shuffled<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /**
   * A new stream that starts 2^64 draws ahead of this one's current state, so the two never
   * overlap in practice; this stream moves on by as much, so successive forks differ too.
   */
  fork(): SeededStream {
    const next = this.rng.clone();
    next.unsafeJump?.();
    this.rng.unsafeJump?.();
    this.rng.unsafeJump?.();
    return new SeededStream(next);
  }
}
