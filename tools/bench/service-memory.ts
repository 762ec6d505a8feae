import { waitUntil } from './wait-until';
import type { SpawnedService } from './spawned-service';

/** The service's memory with `runs` runs in flight, after a forced gc (heapUsed + external + arrayBuffers). */
export interface MemoryStep {
  runs: number;
  bytes: number;
}

/**
 * Reads a service's memory through the preloaded `memory-probe.js`: `sample` sends SIGUSR2 and
 * waits for the `memory probe` line that `read` (the service's stdout lines) picks up.
 */
export class MemoryProbe {
  private readings: number[] = [];

  /** Feeds one line of the service's stdout. */
  read(line: string): void {
    if (!line.includes('"memory probe"')) return;
    this.readings.push(Number((JSON.parse(line) as { bytes: number }).bytes));
  }

  /** Bytes now, after a forced gc; the median of three readings. */
  async sample(service: SpawnedService, timeoutMs = 10_000): Promise<number> {
    const values: number[] = [];
    for (let i = 0; i < 3; i++) {
      const seen = this.readings.length;
      service.signal('SIGUSR2');
      values.push(
        await waitUntil(async () => this.readings[seen], 'a memory probe line', timeoutMs, 20),
      );
    }
    return values.sort((a, b) => a - b)[1];
  }
}

/** `0 → 1000: 12.3 KB/run; 1000 → 5000: …` (the slope between consecutive steps, and the total). */
export function memorySlopes(steps: readonly MemoryStep[]): string {
  const perRun = (from: MemoryStep, to: MemoryStep) =>
    `${((to.bytes - from.bytes) / (to.runs - from.runs) / 1024).toFixed(1)} KB/run`;
  const parts = steps
    .slice(1)
    .map((step, i) => `${steps[i].runs} -> ${step.runs}: ${perRun(steps[i], step)}`);
  const mb = steps
    .map((step) => `${step.runs}: ${(step.bytes / 1024 / 1024).toFixed(1)} MB`)
    .join(', ');
  return `${mb}; slope ${parts.join('; ')}`;
}
