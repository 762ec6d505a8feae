import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Child process of `measureAbortFloor`: `node abort-floor-child.js <calls> <repeats>` prints
 * `{"samplesMs":[…]}`, each the time to abort `calls` pending calls and see them all settle.
 */
const CALL_MS = 600_000;

async function abortAll(calls: number): Promise<number> {
  const controllers: AbortController[] = [];
  const settled: Promise<unknown>[] = [];
  for (let i = 0; i < calls; i++) {
    const controller = new AbortController();
    controllers.push(controller);
    settled.push(sleep(CALL_MS, undefined, { signal: controller.signal }).catch(() => undefined));
  }
  const startedAt = performance.now();
  for (const controller of controllers) controller.abort();
  await Promise.all(settled);
  return performance.now() - startedAt;
}

async function main(): Promise<void> {
  const [calls, repeats] = process.argv.slice(2).map(Number);
  const samplesMs: number[] = [];
  for (let i = 0; i < repeats; i++) samplesMs.push(await abortAll(calls));
  process.stdout.write(JSON.stringify({ samplesMs }));
}

void main();
