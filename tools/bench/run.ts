import { cpus, loadavg, platform, arch } from 'node:os';
import { join, relative } from 'node:path';
import { ChartFiles } from '../charts/chart-files';
import {
  crossInstanceCancelCharts,
  drainModesCharts,
  handoverGapCharts,
  throughputCharts,
  type BenchChart,
} from './bench-charts';
import { messageOf } from './bench-stats';
import { selectedSections, type SectionKey } from './bench-selection';
import {
  crossInstanceCancelReport,
  measureCrossInstanceCancel,
  type CrossInstanceCancelOptions,
} from './cross-instance-cancel.bench';
import { drainModesReport, measureDrainModes, type DrainModesOptions } from './drain-modes.bench';
import { eventLogReport, measureEventLog, type EventLogOptions } from './event-log.bench';
import {
  handoverGapReport,
  measureHandoverGap,
  type HandoverGapOptions,
} from './handover-gap.bench';
import { hookOverheadReport, measureHookOverhead } from './hook-overhead.bench';
import {
  interruptLatencyReport,
  measureInterruptLatency,
  type InterruptLatencyOptions,
} from './interrupt-latency.bench';
import {
  adapterOverheadReport,
  measureAdapterOverhead,
  type AdapterOverheadOptions,
  type AdapterOverheadResult,
} from './adapter-overhead.bench';
import { aiSdkSubject } from './ai-sdk-subject';
import { joinReplayReport, measureJoinReplay, type JoinReplayOptions } from './join-replay.bench';
import { langGraphSubject } from './langgraph-subject';
import { openAiAgentsSubject } from './openai-agents-subject';
import {
  langGraphCheckpointReport,
  measureLangGraphCheckpoint,
  type LangGraphCheckpointOptions,
} from './langgraph-checkpoint.bench';
import {
  measurePgCheckpoint,
  pgCheckpointReport,
  type PgCheckpointOptions,
} from './pg-checkpoint.bench';
import { measureRedisLoad, redisLoadReport, type RedisLoadOptions } from './redis-load.bench';
import { measureRequestCost, type RequestCostOptions } from './request-cost.bench';
import { requestCostReport } from './request-cost-report';
import { withPostgresServer } from './bench-services';
import { measureThroughput, type ThroughputOptions } from './throughput.bench';
import { throughputReport } from './throughput-report';
import {
  measureShutdownAtScale,
  shutdownAtScaleReport,
  type ShutdownAtScaleOptions,
  type ShutdownAtScaleResult,
  type ShutdownStore,
  type KeptStreams,
} from './shutdown-at-scale.bench';

const HOOK_OVERHEAD = { runs: 2_000, iterations: 10, warmupRuns: 500 };
/** Sizes with few streams kept open (the store and the shutdown path), then the largest with every stream open. */
const SHUTDOWN_CASES: { runs: number; kept: KeptStreams }[] = [
  { runs: 1_000, kept: 100 },
  { runs: 5_000, kept: 100 },
  { runs: 10_000, kept: 100 },
  { runs: 10_000, kept: 'all' },
];
const SHUTDOWN: ShutdownAtScaleOptions = {
  reasoningMs: 600_000,
  shutdownTimeoutMs: 25_000,
  inFlightTimeoutMs: 300_000,
  waveSize: 500,
  memorySteps: [0, 1_000, 5_000, 10_000],
  targetRatio: 3,
  leaseTtlMs: 60_000,
};
const CROSS_INSTANCE: CrossInstanceCancelOptions = {
  runs: 300,
  warmupRuns: 20,
  maxGapMs: 100,
  abortTimeoutMs: 2_000,
  pollIntervalMs: 100,
};
const REDIS_LOAD: RedisLoadOptions = {
  runCounts: [10, 1_000],
  windowMs: 3_000,
  settleMs: 500,
  pollIntervalMs: 100,
};
const ADAPTER_OVERHEAD: AdapterOverheadOptions = { runs: 40, iterations: 5, warmupRuns: 5 };
const PG_CHECKPOINT: PgCheckpointOptions = {
  sizes: [10, 500],
  threadsPerSize: 50,
  warmupSteps: 1,
  timedSteps: 3,
};
const LANGGRAPH_CHECKPOINT: LangGraphCheckpointOptions = {
  sizes: [10, 100, 1_000],
  threadsPerSize: 30,
  warmupSteps: 1,
  timedSteps: 4,
};
const EVENT_LOG: EventLogOptions = {
  events: 10_000,
  appendBatch: 100,
  pageSize: 1_000,
  replays: 9,
  followSamples: 1_000,
  followWarmup: 50,
  followTargetMs: 5,
};
const HANDOVER_GAP: HandoverGapOptions = {
  runs: 30,
  steps: 4,
  reasoningMs: 250,
  toolMs: 250,
  toolResultsBeforeSignal: 1,
  shutdownTimeoutMs: 25_000,
  progressTimeoutMs: 30_000,
  completionTimeoutMs: 60_000,
};
const JOIN_REPLAY: JoinReplayOptions = {
  events: 10_000,
  steps: 1_250,
  joins: 9,
  pageSize: 1_000,
  produceTimeoutMs: 120_000,
  joinTimeoutMs: 60_000,
};
const REQUEST_COST: RequestCostOptions = {
  clients: 2,
  warmupMs: 1_000,
  warmupRounds: 2,
  batchMs: 1_000,
  batches: 5,
  maxBatchRequests: 3_000,
  attackers: 4,
  latencyWindowMs: 5_000,
};
/** Tools long enough that the active run is always mid-call when the interrupt comes. */
const INTERRUPT_LATENCY: InterruptLatencyOptions = {
  runs: 30,
  warmupRuns: 3,
  steps: 5,
  toolMs: 2_000,
  reasoningMs: 100,
  eventTimeoutMs: 15_000,
};
const DRAIN_MODES: DrainModesOptions = {
  runs: 1_000,
  reasoningMs: 600_000,
  shutdownTimeoutMs: 25_000,
  inFlightTimeoutMs: 60_000,
  continueDeadlineMs: 60_000,
};

/**
 * (l) measures short runs (3 steps: start and end weigh as they do for most services). `--quick`
 * measures the same subjects at the low concurrencies most services run (1 and 10 at once),
 * with enough runs to be stable; the full form adds 100 and 1,000 at once.
 */
const QUICK = process.argv.includes('--quick');
const THROUGHPUT: ThroughputOptions = QUICK
  ? { concurrencies: [1, 10], stepsPerRun: 3, minRunsPerCase: 60, warmupRuns: 10 }
  : { concurrencies: [1, 10, 100, 1_000], stepsPerRun: 3, minRunsPerCase: 200, warmupRuns: 20 };

/** The CPU profile of (l), beside the charts. */
const PROFILE = 'bench-throughput.cpuprofile';

/** Where the sections' charts go: `demo-output/bench/` (or `--out DIR`), and `docs/images/` with `--publish`. */
const CHART_FILES = ChartFiles.forTool(
  'bench',
  process.argv.includes('--publish'),
  optionValue('--out'),
);

function optionValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/**
 * Prints one benchmark's report, or why it could not be measured; returns false on the latter,
 * or when `problemsOf` finds a failure in the result (a lost run, a lost or repeated event).
 * A missed target is in the report, not a failure: the numbers are still worth reading. The
 * section's `charts`, drawn from the same result, are written beside (see `CHART_FILES`).
 */
async function section<T>(
  title: string,
  measure: () => Promise<T>,
  report: (result: T) => string,
  problemsOf?: (result: T) => readonly string[],
  charts?: (result: T) => Promise<BenchChart[]>,
): Promise<boolean> {
  try {
    const result = await measure();
    console.log(report(result));
    for (const chart of (await charts?.(result)) ?? [])
      console.log(`chart: ${CHART_FILES.write(chart.name, chart.svg).join(', ')}`);
    return (problemsOf?.(result) ?? []).length === 0;
  } catch (error) {
    console.log(`${title}: MEASUREMENT FAILED: ${messageOf(error)}`);
    return false;
  } finally {
    console.log('');
  }
}

function header(): string {
  const script = relative(process.cwd(), process.argv[1] ?? '');
  const args = process.argv.slice(2).join(' ');
  const command =
    process.env.npm_lifecycle_event === 'bench'
      ? `npm run bench${args ? ` -- ${args}` : ''}  (node ${script})`
      : `node ${script}${args ? ` ${args}` : ''}`;
  const cpu = cpus();
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return [
    `command: ${command}`,
    `machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown cpu'}), Node ${process.version}, ${platform()} ${arch()}, load average at start ${load}`,
  ].join('\n');
}

/** Each framework adapter's per-step overhead, measured one framework after the other. */
async function measureAdapters(): Promise<AdapterOverheadResult[]> {
  const results: AdapterOverheadResult[] = [];
  const subjects = [aiSdkSubject, langGraphSubject, openAiAgentsSubject];
  for (const subject of subjects)
    results.push(
      await measureAdapterOverhead(subject(ADAPTER_OVERHEAD.iterations), ADAPTER_OVERHEAD),
    );
  return results;
}

/**
 * (b): one shutdown per store and size, on SQLite and on a PostgreSQL of this run (a database
 * per size); a size that could not be measured is a failure line of the same table.
 */
async function shutdownAtScale(): Promise<boolean> {
  const results: ShutdownAtScaleResult[] = [];
  const failures: string[] = [];
  await withPostgresServer(async (postgres) => {
    const stores: { name: string; store: () => Promise<ShutdownStore> }[] = [
      { name: 'sqlite', store: async () => ({ kind: 'sqlite' }) },
      {
        name: 'postgres',
        store: async () => ({
          kind: 'postgres',
          databaseUrl: await postgres.createDatabase(`shutdown_${Date.now()}`),
        }),
      },
    ];
    // `--profile`: each shutdown's service under `node --cpu-prof`, grouped in the report (the profiler slows it).
    const options = process.argv.includes('--profile')
      ? { ...SHUTDOWN, cpuProfileDir: join(CHART_FILES.dirs[0], 'shutdown-profiles') }
      : SHUTDOWN;
    for (const { name, store } of stores) {
      for (const { runs, kept } of SHUTDOWN_CASES) {
        try {
          results.push(await measureShutdownAtScale(runs, options, await store(), kept));
        } catch (error) {
          failures.push(
            `${name} N=${runs} (${kept} streams): measurement failed: ${messageOf(error)}`,
          );
        }
      }
    }
  });
  console.log(shutdownAtScaleReport(results, SHUTDOWN, failures));
  console.log('');
  return failures.length === 0 && results.every((r) => r.problems.length === 0);
}

/** Every section by its letter; each prints its report and says whether it measured without failure. */
const SECTIONS: Record<SectionKey, () => Promise<boolean>> = {
  a: async () => {
    console.log(hookOverheadReport(await measureHookOverhead(HOOK_OVERHEAD)));
    console.log('');
    return true;
  },
  b: shutdownAtScale,
  c: () =>
    section(
      '(c) cross-instance cancel latency',
      () => measureCrossInstanceCancel(CROSS_INSTANCE),
      crossInstanceCancelReport,
      undefined,
      crossInstanceCancelCharts,
    ),
  d: () =>
    section('(d) Redis load per instance', () => measureRedisLoad(REDIS_LOAD), redisLoadReport),
  e: () =>
    section(
      '(e) checkpoint cost on PostgreSQL',
      () => measurePgCheckpoint(PG_CHECKPOINT),
      pgCheckpointReport,
    ),
  f: () => section('(f) framework adapter overhead', measureAdapters, adapterOverheadReport),
  g: () =>
    section(
      '(g) LangGraph checkpoint cost on PostgreSQL',
      () => measureLangGraphCheckpoint(LANGGRAPH_CHECKPOINT),
      langGraphCheckpointReport,
    ),
  h: () => section('(h) run event log', () => measureEventLog(EVENT_LOG), eventLogReport),
  i: () =>
    section(
      '(i) handover gap vs client retry',
      () => measureHandoverGap(HANDOVER_GAP),
      handoverGapReport,
      (r) => r.rows.flatMap((row) => row.problems),
      handoverGapCharts,
    ),
  j: () =>
    section('(j) join replay throughput', () => measureJoinReplay(JOIN_REPLAY), joinReplayReport),
  k: () =>
    section(
      '(k) drain at scale, auto vs client',
      () => measureDrainModes(DRAIN_MODES),
      drainModesReport,
      (r) => r.rows.flatMap((row) => row.problems),
      drainModesCharts,
    ),
  l: () =>
    section(
      '(l) throughput on PostgreSQL',
      async () => {
        const result = await measureThroughput({
          ...THROUGHPUT,
          profile: { subject: 'native runtime + module', path: join(CHART_FILES.dirs[0], PROFILE) },
        });
        if (result.profilePath) CHART_FILES.copyFromFirst(PROFILE);
        return result;
      },
      throughputReport,
      (r) => r.failures,
      throughputCharts,
    ),
  m: () =>
    section(
      '(m) request cost before authentication',
      () => measureRequestCost(REQUEST_COST),
      requestCostReport,
      (r) => r.problems,
    ),
  n: () =>
    section(
      '(n) interrupt latency',
      () => measureInterruptLatency(INTERRUPT_LATENCY),
      interruptLatencyReport,
      (r) => r.problems,
    ),
};

/**
 * Prints the tables of every section, or of those after `--only` (e.g. `--only h,i,j,k`), and
 * writes the charts of (c), (i), (k) and (l) as SVG and PNG and the CPU profile of (l) (`--out
 * DIR`, `--publish`); `--quick` runs (l) at small sizes. Exits 1
 * if a run was lost, an event lost or repeated, or a measurement failed (not for a missed target).
 */
async function main(): Promise<void> {
  const selected = selectedSections(process.argv.slice(2));
  const started = Date.now();
  console.log(header());
  console.log('');
  const measured: boolean[] = [];
  for (const key of selected) measured.push(await SECTIONS[key]());
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (measured.includes(false)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
