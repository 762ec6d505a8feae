/**
 * Preloaded into a benchmarked service (`node --expose-gc --require memory-probe.js`): on
 * SIGUSR2 it collects garbage and prints one JSON line with the memory a run can hold,
 * `{"msg":"memory probe","bytes":…}` (heapUsed + external + arrayBuffers). Bench-only: the
 * service itself has no such hook. A signal listener does not keep the process alive.
 */
const collect = (globalThis as { gc?: () => void }).gc;

process.on('SIGUSR2', () => {
  // Twice: the first pass can leave objects with finalizers for the second.
  collect?.();
  collect?.();
  const usage = process.memoryUsage();
  const bytes = usage.heapUsed + usage.external + usage.arrayBuffers;
  process.stdout.write(
    `${JSON.stringify({ msg: 'memory probe', bytes, gc: collect !== undefined })}\n`,
  );
});
