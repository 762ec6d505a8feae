import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Session } from 'node:inspector/promises';

/**
 * Runs `work` under the V8 sampling profiler of this process and writes the profile to `path`
 * as a `.cpuprofile` (Chrome DevTools, VS Code and speedscope open it), even when `work` throws.
 *
 * @example
 * await withCpuProfile('demo-output/bench/throughput.cpuprofile', () => runMany(1_000));
 */
export async function withCpuProfile<T>(path: string, work: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    try {
      return await work();
    } finally {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, JSON.stringify(profile));
    }
  } finally {
    session.disconnect();
  }
}
