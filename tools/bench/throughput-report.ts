import { relative } from 'node:path';
import { verdict } from './bench-stats';
import { renderTable, type Column } from './bench-table';
import type { ThroughputResult, ThroughputRow } from './throughput.bench';

/** Steps per second under the module against LangGraph with `PostgresSaver` (sync), at every concurrency, at least. */
export const PEER_RATIO_TARGET = 1;
/** Steps per second under the module against the framework's own no-persistence floor, at 1,000 at once, at least. */
export const FLOOR_RATIO_TARGET = 0.8;
/** The concurrency the floor ratio is judged at (the largest measured, when the run measures fewer). */
export const FLOOR_RATIO_CONCURRENCY = 1_000;
/** PostgreSQL round trips of one run of the benchmark's steps (3), start and end included, at most. */
export const ROUND_TRIPS_PER_RUN_TARGET = 8;
/** The module's own CPU per step (the subject's, less its framework's floor), at most, in µs, at 10 runs at once or fewer. */
export const MODULE_CPU_PER_STEP_TARGET_US = 500;
/** Per-step added latency p99 under the module at 10 runs at once, at most, in ms. */
export const ADDED_LATENCY_P99_TARGET_MS = 5;
/** The concurrencies the CPU and latency targets hold at, at most. */
const LOW_CONCURRENCY = 10;
/** The peer the throughput target compares with: a step durable before the next, as under the module. */
export const PEER = 'LangGraph + PostgresSaver (sync)';

const fixed = (value: number, decimals: number) =>
  value.toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });

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
    'round trips/run',
    'bytes/step',
    'CPU/step',
    'module CPU/step',
    'PG CPU/step',
  ];
  const columns = headings.map((heading, i): Column => ({
    heading,
    align: i === 0 ? 'left' : 'right',
  }));
  return renderTable(
    columns,
    result.rows.map((row) => {
      const added = addedLatencyMs(row);
      const moduleCpu = moduleCpuMicrosPerStep(result, row);
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
        fixed(row.roundTripsPerStep * result.options.stepsPerRun, 1),
        fixed(row.bytesPerStep, 0),
        `${fixed(row.cpuMicrosPerStep, 0)} µs`,
        moduleCpu === undefined ? '-' : `${fixed(moduleCpu, 0)} µs`,
        row.postgresCpuMicrosPerStep === undefined
          ? 'n/a'
          : `${fixed(row.postgresCpuMicrosPerStep, 0)} µs`,
      ];
    }),
  );
}

/** The module's own CPU per step of a module row: its CPU less that of its framework's floor at the same concurrency. */
export function moduleCpuMicrosPerStep(
  result: ThroughputResult,
  row: ThroughputRow,
): number | undefined {
  if (row.kind !== 'module') return undefined;
  const floor = result.rows.find(
    (r) => r.kind === 'floor' && r.framework === row.framework && r.concurrency === row.concurrency,
  );
  return floor && row.cpuMicrosPerStep - floor.cpuMicrosPerStep;
}

/**
 * The targets, each measured in this run: the steps/s ratio against the peer at every
 * concurrency and against the framework's floor at 1,000, round trips per run, the module's own
 * CPU per step and the added p99 at 10 at once or fewer.
 */
function targets(result: ThroughputResult): string[] {
  const { concurrencies, stepsPerRun } = result.options;
  const modules = result.rows.filter((r) => r.kind === 'module');
  const lines = [
    `steps/s under the module / ${PEER}, >= ${PEER_RATIO_TARGET}x at every concurrency:`,
  ];
  for (const row of modules) {
    const peer = result.rows.find((r) => r.subject === PEER && r.concurrency === row.concurrency);
    const ratio = peer && row.stepsPerSecond / peer.stepsPerSecond;
    const judged =
      ratio === undefined
        ? `n/a (${PEER} not measured)`
        : `${ratio.toFixed(2)}x  ${verdict(ratio >= PEER_RATIO_TARGET)}`;
    lines.push(`    ${row.subject}, ${fixed(row.concurrency, 0)} at once: ${judged}`);
  }
  const floorAt = concurrencies.includes(FLOOR_RATIO_CONCURRENCY)
    ? FLOOR_RATIO_CONCURRENCY
    : Math.max(...concurrencies);
  lines.push(
    `steps/s under the module / the framework with no persistence, >= ${FLOOR_RATIO_TARGET}x at ${fixed(floorAt, 0)} at once:`,
  );
  for (const row of modules.filter((r) => r.concurrency === floorAt)) {
    const floor = result.rows.find(
      (r) => r.kind === 'floor' && r.framework === row.framework && r.concurrency === floorAt,
    );
    const ratio = floor && row.stepsPerSecond / floor.stepsPerSecond;
    lines.push(
      `    ${row.subject}: ${ratio === undefined ? 'n/a (floor not measured)' : `${ratio.toFixed(2)}x  ${verdict(ratio >= FLOOR_RATIO_TARGET)}`}`,
    );
  }
  lines.push(
    `PostgreSQL round trips of a ${stepsPerRun}-step run under the module, start and end included, <= ${ROUND_TRIPS_PER_RUN_TARGET}:`,
  );
  for (const row of modules.filter((r) => r.concurrency === Math.min(...concurrencies))) {
    const perRun = row.roundTripsPerStep * stepsPerRun;
    lines.push(
      `    ${row.subject}: ${fixed(perRun, 1)}  ${verdict(perRun <= ROUND_TRIPS_PER_RUN_TARGET)}`,
    );
  }
  lines.push(
    `the module's own CPU per step (the subject's less its floor's), <= ${MODULE_CPU_PER_STEP_TARGET_US} µs at ${LOW_CONCURRENCY} at once or fewer:`,
  );
  for (const row of modules.filter((r) => r.concurrency <= LOW_CONCURRENCY)) {
    const cpu = moduleCpuMicrosPerStep(result, row);
    if (cpu === undefined) continue;
    lines.push(
      `    ${row.subject}, ${fixed(row.concurrency, 0)} at once: ${fixed(cpu, 0)} µs  ${verdict(cpu <= MODULE_CPU_PER_STEP_TARGET_US)}`,
    );
  }
  lines.push(
    `per-step added latency p99 under the module on PostgreSQL, <= ${ADDED_LATENCY_P99_TARGET_MS} ms at ${LOW_CONCURRENCY} at once or fewer:`,
  );
  for (const row of modules.filter((r) => r.concurrency <= LOW_CONCURRENCY)) {
    const added = addedLatencyMs(row);
    if (!added) continue;
    lines.push(
      `    ${row.subject}, ${fixed(row.concurrency, 0)} at once: ${fixed(added.p99, 2)} ms  ${verdict(added.p99 <= ADDED_LATENCY_P99_TARGET_MS)}`,
    );
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
    `    PostgreSQL cluster, from /proc; round trips, bytes and CPU per step with run start and end included;`,
    `    module CPU = CPU/step less that of the framework with no persistence at the same concurrency`,
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
