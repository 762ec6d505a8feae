import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import type { PostgresServer } from 'dev-services';
import { RedisRunEventLog, RedisSignalBus } from 'nest-agent-graceful-shutdown/redis';
import {
  PostgresSignalBus,
  SESSION_ENTITIES,
  SESSION_MIGRATIONS,
  TypeOrmRunEventLog,
  type Unsubscribe,
} from 'nest-agent-graceful-shutdown/store';
import { withPostgresAndRedis } from './bench-services';
import { joinLatencies } from './log-join-latency';
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
  /** The Redis bus. */
  bus: Summary;
  polling: Summary;
  /** The PostgreSQL bus (`LISTEN`/`NOTIFY`), measured in the same run; absent in results made before it. */
  postgres?: Summary;
  /** Append on A to a follower on B, per log: Redis Streams, and the SQL log woken by the PostgreSQL bus. */
  join?: { redis: Summary; postgres: Summary };
  /** Every measured latency, in ms, in the order taken: what the chart draws. */
  samples: { bus: number[]; polling: number[]; postgres?: number[] };
}

/** p99 the bus must stay under, in ms, and how many times better than polling it must be. */
const P99_TARGET_MS = 15;
const RATIO_TARGET = 10;

/**
 * Instance A holds the runs, instance B sends the cancels, one at a time: each waits for the
 * previous abort, so the samples measure delivery, not a queue of cancels.
 */
async function cancelLatencies(
  a: CancelTransport,
  b: CancelTransport,
  options: CrossInstanceCancelOptions,
): Promise<number[]> {
  const unsubscribes: Unsubscribe[] = [];
  try {
    await Promise.all([a.connect(), b.connect()]);
    const runs: { threadId: string; runId: string; aborted: Promise<number> }[] = [];
    for (let i = 0; i < options.warmupRuns + options.runs; i++) {
      const controller = new AbortController();
      const aborted = new Promise<number>((resolve) =>
        controller.signal.addEventListener('abort', () => resolve(performance.now()), {
          once: true,
        }),
      );
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
      if (abortedAt === undefined)
        throw new Error(
          `run ${i} was not aborted within ${options.abortTimeoutMs} ms of its cancel`,
        );
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

/** A migrated session database on `postgres`, as the instances share it. */
async function sessionDatabase(postgres: PostgresServer): Promise<DataSource> {
  const url = await postgres.createDatabase('bench_signals');
  return new DataSource({
    type: 'postgres',
    url,
    entities: SESSION_ENTITIES,
    migrations: SESSION_MIGRATIONS,
    migrationsRun: true,
  }).initialize();
}

/** Join latency on Redis Streams, then on the SQL log nudged through the PostgreSQL bus. */
async function measureJoins(
  redisUrl: string,
  source: DataSource,
  options: CrossInstanceCancelOptions,
): Promise<{ redis: number[]; postgres: number[] }> {
  const logs = [
    new RedisRunEventLog({ url: redisUrl, keyPrefix: 'bench-join:', logger: SILENT_LOGGER }),
    new RedisRunEventLog({ url: redisUrl, keyPrefix: 'bench-join:', logger: SILENT_LOGGER }),
  ];
  const buses = [
    new PostgresSignalBus(source, { logger: SILENT_LOGGER }),
    new PostgresSignalBus(source, { logger: SILENT_LOGGER }),
  ];
  try {
    await Promise.all([...logs, ...buses].map((part) => part.connect()));
    const redis = await joinLatencies(logs[0], logs[1], options);
    const postgres = await joinLatencies(
      new TypeOrmRunEventLog(source, Date.now, buses[0]),
      new TypeOrmRunEventLog(source, Date.now, buses[1]),
      options,
    );
    return { redis, postgres };
  } finally {
    await Promise.all([...logs, ...buses].map((part) => part.close()));
  }
}

/**
 * Measures the Redis bus, the polling baseline and the PostgreSQL bus on one fresh redis-server
 * and PostgreSQL, one after the other, so one's load cannot slow another's samples; then the
 * join latency of both logs.
 */
export async function measureCrossInstanceCancel(
  options: CrossInstanceCancelOptions,
): Promise<CrossInstanceCancelResult> {
  return withPostgresAndRedis(async (postgres, redis) => {
    const bus = () =>
      new RedisSignalBus({ url: redis.url, keyPrefix: 'bench-bus:', logger: SILENT_LOGGER });
    const busSamples = await cancelLatencies(bus(), bus(), options);
    const polling = () =>
      new PollingCancelBaseline({
        url: redis.url,
        keyPrefix: 'bench-poll:',
        intervalMs: options.pollIntervalMs,
      });
    const pollingSamples = await cancelLatencies(polling(), polling(), options);
    const source = await sessionDatabase(postgres);
    try {
      const pgBus = () =>
        new PostgresSignalBus(source, { channelPrefix: 'bench_', logger: SILENT_LOGGER });
      const postgresSamples = await cancelLatencies(pgBus(), pgBus(), options);
      const join = await measureJoins(redis.url, source, options);
      return {
        options,
        bus: summarize(busSamples),
        polling: summarize(pollingSamples),
        postgres: summarize(postgresSamples),
        join: { redis: summarize(join.redis), postgres: summarize(join.postgres) },
        samples: { bus: busSamples, polling: pollingSamples, postgres: postgresSamples },
      };
    } finally {
      await source.destroy();
    }
  });
}

/** The latency table and the two targets, each with pass or TARGET MISSED. */
export function crossInstanceCancelReport(result: CrossInstanceCancelResult): string {
  const { options, bus, polling } = result;
  const row = (name: string, s: Summary) => [
    name,
    String(s.count),
    formatMs(s.p50),
    formatMs(s.p99),
    formatMs(s.max),
    formatMs(s.mean),
  ];
  const table = renderTable(
    [
      { heading: 'implementation' },
      { heading: 'samples', align: 'right' },
      { heading: 'p50', align: 'right' },
      { heading: 'p99', align: 'right' },
      { heading: 'max', align: 'right' },
      { heading: 'mean', align: 'right' },
    ],
    [
      row('RedisSignalBus (pub/sub)', bus),
      ...(result.postgres ? [row('PostgresSignalBus (LISTEN/NOTIFY)', result.postgres)] : []),
      row(`polling baseline (GET every ${options.pollIntervalMs} ms)`, polling),
      ...(result.join
        ? [row('join: Redis Streams log, append on A -> follower on B', result.join.redis)]
        : []),
      ...(result.join
        ? [
            row(
              'join: SQL log + PostgreSQL nudge, append on A -> follower on B',
              result.join.postgres,
            ),
          ]
        : []),
    ],
  );
  const ratio = polling.p99 / bus.p99;
  return [
    `(c) cross-instance cancel latency: real redis-server and PostgreSQL, two instances in one process (A holds`,
    `    the runs, B cancels), from just before publishCancel on B to the AbortSignal firing on A; ${options.runs} sequential`,
    `    cancels per implementation after ${options.warmupRuns} warm-up ones, each after a random 0-${options.maxGapMs} ms pause.`,
    `    Join rows: B follows a run's log, A appends one event at a time (without the nudge, the SQL log`,
    `    reaches another instance's stream only at its 5 s liveness check)`,
    '',
    table,
    '',
    `bus p99 < ${P99_TARGET_MS} ms: ${formatMs(bus.p99)}  ${verdict(bus.p99 < P99_TARGET_MS)}`,
    ...(result.postgres
      ? [
          `postgres bus p99 < ${P99_TARGET_MS} ms: ${formatMs(result.postgres.p99)}  ${verdict(result.postgres.p99 < P99_TARGET_MS)}`,
        ]
      : []),
    `p99 polling/bus >= ${RATIO_TARGET}x: ${ratio.toFixed(1)}x  ${verdict(ratio >= RATIO_TARGET)}`,
  ].join('\n');
}
