import { relative } from 'node:path';
import { verdict } from './bench-stats';
import { renderTable, type Column } from './bench-table';
import type { ThroughputResult, ThroughputRow } from './throughput.bench';

/** Steps per second under the module against LangGraph with `PostgresSaver` at the largest concurrency, at least. */
export const THROUGHPUT_RATIO_TARGET = 3;
/** Per-step added latency p99 under the module, at most, in ms. */
export const ADDED_LATENCY_P99_TARGET_MS = 5;
/** The peer the throughput target compares with: a step durable before the next, as under the module. */
export const PEER = 'LangGraph + PostgresSaver (sync)';

const fixed = (value: number, decimals: number) => value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** Added latency per step, in ms: what the step waited on its durable writes (undefined where writes do not hold steps). */
export function addedLatencyMs(row: ThroughputRow): { p50: number; p99: number } | undefined {
  return row.writeWaitMs && { p50: row.writeWaitMs.p50, p99: row.writeWaitMs.p99 };
}

function table(result: ThroughputResult): string {
  const headings = [
    'subject',
    'at once',
    'runs',
    'steps/s',
    'step p50',
    'step p99',
    'added p50',
    'added p99',
    'round trips/step',
    'bytes/step',
    'CPU/step',
    'PG CPU/step',
  ];
  const columns = headings.map((heading, i): Column => ({ heading, align: i === 0 ? 'left' : 'right' }));
  return renderTable(
    columns,
    result.rows.map((row) => {
      const added = addedLatencyMs(row);
      return [
        row.subject,
        String(row.concurrency),
        String(row.runs),
        fixed(row.stepsPerSecond, 0),
        `${fixed(row.stepMs.p50, 2)} ms`,
        `${fixed(row.stepMs.p99, 2)} ms`,
        added ? `${fixed(added.p50, 2)} ms` : '-',
        added ? `${fixed(added.p99, 2)} ms` : '-',
        fixed(row.roundTripsPerStep, 1),
        fixed(row.bytesPerStep, 0),
        `${fixed(row.cpuMicrosPerStep, 0)} µs`,
        row.postgresCpuMicrosPerStep === undefined ? 'n/a' : `${fixed(row.postgresCpuMicrosPerStep, 0)} µs`,
      ];
    }),
  );
}

/** The targets, each measured in this run: the steps/s ratio at the largest concurrency, and added p99 at each. */
function targets(result: ThroughputResult): string[] {
  const largest = Math.max(...result.options.concurrencies);
  const peer = result.rows.find((r) => r.subject === PEER && r.concurrency === largest);
  const modules = result.rows.filter((r) => r.kind === 'module');
  const lines = [`steps/s under the module / ${PEER} at ${fixed(largest, 0)} runs at once, >= ${THROUGHPUT_RATIO_TARGET}x:`];
  for (const row of modules.filter((r) => r.concurrency === largest)) {
    const ratio = peer ? row.stepsPerSecond / peer.stepsPerSecond : undefined;
    lines.push(
      `    ${row.subject}: ${ratio === undefined ? `n/a (${PEER} not measured)` : `${ratio.toFixed(2)}x  ${verdict(ratio >= THROUGHPUT_RATIO_TARGET)}`}`,
    );
  }
  lines.push(`per-step added latency p99 under the module on PostgreSQL, <= ${ADDED_LATENCY_P99_TARGET_MS} ms:`);
  for (const row of modules) {
    const added = addedLatencyMs(row);
    if (!added) continue;
    lines.push(`    ${row.subject}, ${fixed(row.concurrency, 0)} at once: ${fixed(added.p99, 2)} ms  ${verdict(added.p99 <= ADDED_LATENCY_P99_TARGET_MS)}`);
  }
  return lines;
}

/** The table, the targets, the profile's path and any failed case. */
export function throughputReport(result: ThroughputResult): string {
  const { options } = result;
  return [
    `(l) throughput on PostgreSQL: one instance in this process, a model that answers at once and a no-op tool;`,
    `    each run ${options.stepsPerRun} steps (a model call and a tool call; one more model call answers), N runs at once`,
    `    (a new one starts as one ends) until at least ${options.minRunsPerCase} and N runs ended, after ${options.warmupRuns} warm-up runs;`,
    `    a fresh database per case. Under the module: the adapter, the run handle and shutdown hook, the TypeORM`,
    `    store and the run event log in the same database (no Redis), run start and group-committed end included.`,
    `    step = time between consecutive tool calls of a run (queueing behind the other runs included); added = per`,
    `    step, the time it waited on its durable writes (the module's checkpoints; PostgresSaver's putWrites and put),`,
    `    none where writes do not hold a step (async durability writes behind it); round trips = pg queries sent;`,
    `    bytes = both ways on the pg sockets; CPU = this process (user + system); PG CPU = every process of the`,
    `    PostgreSQL cluster, from /proc; round trips, bytes and CPU per step with run start and end included`,
    '',
    table(result),
    '',
    ...targets(result),
    ...(result.profilePath
      ? [
          '',
          `cpu profile (${options.profile?.subject}, ${fixed(Math.max(...options.concurrencies), 0)} at once): ${relative(process.cwd(), result.profilePath)}`,
        ]
      : []),
    ...(result.failures.length ? ['', ...result.failures] : []),
  ].join('\n');
}
