import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { RedisSignalBus } from 'nest-agent-graceful-shutdown/redis';
import type { Unsubscribe } from 'nest-agent-graceful-shutdown/store';
import { withRedisServer } from './bench-services';
import { formatMs, SILENT_LOGGER, summarize, verdict, type Summary } from './bench-stats';
import { renderTable } from './bench-table';
import { PollingCancelBaseline, type CancelTransport } from './polling-cancel-baseline';
import { withDeadline } from './wait-until';

/** How many cancels the cross-instance benchmark sends, and how. */
export interface CrossInstanceCancelOptions {
  /** Measured cancels per implementation (one run each). */
  runs: number;
  /** Unmeasured cancels first, so connections and code are warm. */
  warmupRuns: number;
  /** Each cancel waits a random 0..maxGapMs first; one poll interval makes its poll phase uniform. */
  maxGapMs: number;
  /** A run not aborted this long after its cancel fails the measurement. */
  abortTimeoutMs: number;
  /** The baseline's poll interval. */
  pollIntervalMs: number;
}

/** Latencies from cancel request on B to abort on A, in ms, per implementation. */
export interface CrossInstanceCancelResult {
  options: CrossInstanceCancelOptions;
  bus: Summary;
  polling: Summary;
  /** Every measured latency, in ms, in the order taken: what the chart draws. */
  samples: { bus: number[]; polling: number[] };
}

/** p99 the bus must stay under, in ms, and how many times better than polling it must be. */
const P99_TARGET_MS = 15;
const RATIO_TARGET = 10;

/**
 * Instance A holds the runs, instance B sends the cancels, one at a time: each waits for the
 * previous abort, so the samples measure delivery, not a queue of cancels.
 */
async function cancelLatencies(a: CancelTransport, b: CancelTransport, options: CrossInstanceCancelOptions): Promise<number[]> {
  const unsubscribes: Unsubscribe[] = [];
  try {
    await Promise.all([a.connect(), b.connect()]);
    const runs: { threadId: string; runId: string; aborted: Promise<number> }[] = [];
    for (let i = 0; i < options.warmupRuns + options.runs; i++) {
      const controller = new AbortController();
      const aborted = new Promise<number>((resolve) => controller.signal.addEventListener('abort', () => resolve(performance.now()), { once: true }));
      const run = { threadId: `thread-${i}`, runId: `run-${i}` };
      unsubscribes.push(a.onCancel(run.threadId, run.runId, () => controller.abort()));
      runs.push({ ...run, aborted });
      // Runs start at different moments in a real service, so polling timers tick at spread phases.
      await sleep(1);
    }
    const samples: number[] = [];
    for (const [i, run] of runs.entries()) {
      await sleep(Math.random() * options.maxGapMs);
      const sentAt = performance.now();
      await b.publishCancel({ threadId: run.threadId, runId: run.runId });
      const abortedAt = await withDeadline(run.aborted, options.abortTimeoutMs, undefined);
      if (abortedAt === undefined) throw new Error(`run ${i} was not aborted within ${options.abortTimeoutMs} ms of its cancel`);
      unsubscribes[i]();
      if (i >= options.warmupRuns) samples.push(abortedAt - sentAt);
    }
    return samples;
  } finally {
    // Unsubscribing twice is harmless; what matters is that no poll timer survives a failure.
    unsubscribes.forEach((unsubscribe) => unsubscribe());
    await Promise.all([a.close(), b.close()]);
  }
}

/**
 * Measures the bus and the polling baseline on one fresh redis-server, one after the other,
 * so the baseline's polling load cannot slow the bus's samples.
 */
export async function measureCrossInstanceCancel(options: CrossInstanceCancelOptions): Promise<CrossInstanceCancelResult> {
  return withRedisServer(async (redis) => {
    const bus = () => new RedisSignalBus({ url: redis.url, keyPrefix: 'bench-bus:', logger: SILENT_LOGGER });
    const busSamples = await cancelLatencies(bus(), bus(), options);
    const polling = () => new PollingCancelBaseline({ url: redis.url, keyPrefix: 'bench-poll:', intervalMs: options.pollIntervalMs });
    const pollingSamples = await cancelLatencies(polling(), polling(), options);
    return { options, bus: summarize(busSamples), polling: summarize(pollingSamples), samples: { bus: busSamples, polling: pollingSamples } };
  });
}

/** The latency table and the two targets, each with pass or TARGET MISSED. */
export function crossInstanceCancelReport(result: CrossInstanceCancelResult): string {
  const { options, bus, polling } = result;
  const row = (name: string, s: Summary) => [name, String(s.count), formatMs(s.p50), formatMs(s.p99), formatMs(s.max), formatMs(s.mean)];
  const table = renderTable(
    [
      { heading: 'implementation' },
      { heading: 'samples', align: 'right' },
      { heading: 'p50', align: 'right' },
      { heading: 'p99', align: 'right' },
      { heading: 'max', align: 'right' },
      { heading: 'mean', align: 'right' },
    ],
    [row('RedisSignalBus (pub/sub)', bus), row(`polling baseline (GET every ${options.pollIntervalMs} ms)`, polling)],
  );
  const ratio = polling.p99 / bus.p99;
  return [
    `(c) cross-instance cancel latency: real redis-server, two instances in one process (A holds the runs,`,
    `    B cancels), from just before publishCancel on B to the AbortSignal firing on A; ${options.runs} sequential`,
    `    cancels per implementation after ${options.warmupRuns} warm-up ones, each after a random 0-${options.maxGapMs} ms pause`,
    '',
    table,
    '',
    `bus p99 < ${P99_TARGET_MS} ms: ${formatMs(bus.p99)}  ${verdict(bus.p99 < P99_TARGET_MS)}`,
    `p99 polling/bus >= ${RATIO_TARGET}x: ${ratio.toFixed(1)}x  ${verdict(ratio >= RATIO_TARGET)}`,
  ].join('\n');
}
