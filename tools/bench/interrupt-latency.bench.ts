import { benchIdentity } from './bench-identity';
import { withPostgresAndRedis } from './bench-services';
import { formatMs, summarize, type Summary } from './bench-stats';
import { renderTable } from './bench-table';
import { rotation } from './interrupt-checks';
import { interruptSample, newRunStart, type StartSample } from './interrupt-sample';
import type { SpawnedService } from './spawned-service';
import { withTwoInstances } from './two-instances';

/** How many interrupts the section sends, and what the demo agent does meanwhile. */
export interface InterruptLatencyOptions {
  /** Measured samples per case. */
  runs: number;
  /** Unmeasured samples per case first, so connections and code are warm. */
  warmupRuns: number;
  /** The demo agent's steps and tool time: long enough that the active run is always mid-run. */
  steps: number;
  toolMs: number;
  reasoningMs: number;
  /** An event not seen this long after its request fails the measurement. */
  eventTimeoutMs: number;
}

/** The signal bus of a pair of instances: Redis, or PostgreSQL alone (`SIGNALS=postgres`). */
export type InterruptSignals = 'redis' | 'postgres';

/** Where the thread's active run is when the new run comes; `none` is the floor, a fresh thread. */
export type InterruptCase = 'same instance' | 'other instance' | 'none';

/** One case's latencies, in ms from the new run's request. */
export interface InterruptLatencyRow {
  signals: InterruptSignals;
  activeRun: InterruptCase;
  /** To the replaced run's `RUN_REPLACED`; absent for the floor. */
  replaced?: Summary;
  /** To the new run's `RUN_STARTED`. */
  started: Summary;
}

export interface InterruptLatencyResult {
  options: InterruptLatencyOptions;
  rows: InterruptLatencyRow[];
  /** Wrong statuses or terminal codes, each naming its sample: failures, not numbers. */
  problems: string[];
}

const CASES: readonly InterruptCase[] = ['same instance', 'other instance', 'none'];

/** Every case's samples on one pair of instances, the cases interleaved (rotated each repetition). */
async function measurePair(
  signals: InterruptSignals,
  a: SpawnedService,
  b: SpawnedService,
  token: string,
  options: InterruptLatencyOptions,
) {
  const started = new Map<InterruptCase, number[]>(CASES.map((c) => [c, []]));
  const replaced = new Map<InterruptCase, number[]>(CASES.map((c) => [c, []]));
  const problems: string[] = [];
  for (let i = 0; i < options.warmupRuns + options.runs; i++) {
    for (const activeRun of rotation(CASES, i)) {
      const threadId = `interrupt-${signals}-${activeRun.replace(' ', '-')}-${i}`;
      const sample: StartSample & { replacedMs?: number } =
        activeRun === 'none'
          ? await newRunStart(a, token, threadId, options.eventTimeoutMs)
          : await interruptSample(
              a,
              activeRun === 'same instance' ? a : b,
              token,
              threadId,
              options.eventTimeoutMs,
            );
      problems.push(...sample.problems.map((problem) => `${signals}, ${threadId}: ${problem}`));
      if (i < options.warmupRuns) continue;
      started.get(activeRun)!.push(sample.startedMs);
      if (sample.replacedMs !== undefined) replaced.get(activeRun)!.push(sample.replacedMs);
    }
  }
  const rows = CASES.map((activeRun): InterruptLatencyRow => {
    const replacedSamples = replaced.get(activeRun)!;
    return {
      signals,
      activeRun,
      started: summarize(started.get(activeRun)!),
      ...(replacedSamples.length ? { replaced: summarize(replacedSamples) } : {}),
    };
  });
  return { rows, problems };
}

/**
 * Two built instances on one PostgreSQL, first with the Redis bus, then with PostgreSQL alone;
 * per sample a run on instance A on a fresh thread, and at its first tool call a new run on that
 * thread with `multitask=interrupt` sent to A or to B; beside them the floor, a new thread's run.
 */
export async function measureInterruptLatency(
  options: InterruptLatencyOptions,
): Promise<InterruptLatencyResult> {
  const { env, token } = benchIdentity();
  const demo = {
    DEMO_STEPS: String(options.steps),
    DEMO_TOOL_MS: String(options.toolMs),
    DEMO_REASONING_MS: String(options.reasoningMs),
  };
  return withPostgresAndRedis(async (postgres, redis) => {
    const rows: InterruptLatencyRow[] = [];
    const problems: string[] = [];
    const backends: { signals: InterruptSignals; env: Record<string, string> }[] = [
      { signals: 'redis', env: { SIGNALS: 'redis', REDIS_URL: redis.url } },
      { signals: 'postgres', env: { SIGNALS: 'postgres' } },
    ];
    for (const backend of backends) {
      const databaseUrl = await postgres.createDatabase(`interrupt_${backend.signals}`);
      const measured = await withTwoInstances(
        { ...env, ...demo, ...backend.env, DATABASE_URL: databaseUrl },
        (a, b) => measurePair(backend.signals, a, b, token, options),
      );
      rows.push(...measured.rows);
      problems.push(...measured.problems);
    }
    return { options, rows, problems };
  });
}

/** The latency table: per bus and case, to the replaced run's end and to the new run's start. */
export function interruptLatencyReport(result: InterruptLatencyResult): string {
  const { options } = result;
  const right = (heading: string) => ({ heading, align: 'right' as const });
  const three = (s: Summary | undefined) =>
    s ? [formatMs(s.p50, 1), formatMs(s.p95, 1), formatMs(s.max, 1)] : ['-', '-', '-'];
  const table = renderTable(
    [
      { heading: 'signals' },
      { heading: 'active run' },
      right('samples'),
      right('RUN_REPLACED p50'),
      right('p95'),
      right('max'),
      right('RUN_STARTED p50'),
      right('p95'),
      right('max'),
    ],
    result.rows.map((row) => [
      row.signals,
      row.activeRun === 'none' ? 'none (new thread, floor)' : `on the ${row.activeRun}`,
      String(row.started.count),
      ...three(row.replaced),
      ...three(row.started),
    ]),
  );
  return [
    `(n) interrupt latency: two built instances A and B on one PostgreSQL, with the Redis bus, then with`,
    `    PostgreSQL alone (SIGNALS=postgres); a run on A on a fresh thread, and at its first TOOL_CALL_START`,
    `    a new run on that thread with ?multitask=interrupt sent to A (same instance) or B (other instance);`,
    `    ms from that request to the replaced run's RUN_REPLACED and to the new run's RUN_STARTED, each at`,
    `    its client. Floor: a new run on a fresh thread on A. ${options.runs} samples per case after ${options.warmupRuns} warm-up`,
    `    ones, cases interleaved; demo agent ${options.steps} steps, ${options.reasoningMs} ms reasoning, ${options.toolMs} ms tools`,
    '',
    table,
    ...(result.problems.length
      ? ['', ...result.problems.map((problem) => `FAILED: ${problem}`)]
      : []),
  ].join('\n');
}
