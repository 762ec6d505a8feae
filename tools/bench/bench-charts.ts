import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, CHART_WIDTH_PX } from '../charts/chart-theme';
import { vegaLiteToSvg } from '../charts/vega-lite-svg';
import { quantile } from './bench-stats';
import type { CrossInstanceCancelResult } from './cross-instance-cancel.bench';
import type { DrainModesResult } from './drain-modes.bench';
import { ecdfSpec } from './ecdf-chart';
import type { HandoverGapResult } from './handover-gap.bench';
import type { ThroughputResult } from './throughput.bench';

/** One chart of a bench section: its file name (no extension) and its SVG. */
export interface BenchChart {
  name: string;
  svg: string;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const median = (samples: readonly number[]) =>
  quantile(
    [...samples].sort((a, b) => a - b),
    0.5,
  );

/** (c): the distribution of cancel latencies, the Redis and PostgreSQL buses against polling, from the same run. */
export async function crossInstanceCancelCharts(
  result: CrossInstanceCancelResult,
): Promise<BenchChart[]> {
  const { options, bus, polling, samples } = result;
  const spec = ecdfSpec({
    title: samples.postgres
      ? '(c) Cross-instance cancel latency: Redis and PostgreSQL buses vs polling'
      : '(c) Cross-instance cancel latency: Redis pub/sub bus vs polling',
    facts: [
      `${options.runs} sequential cancels each, same run, real redis-server; publishCancel on B to the AbortSignal on A`,
      `bus p50 ${ms(bus.p50)}, p99 ${ms(bus.p99)}; polling (GET every ${options.pollIntervalMs} ms) p50 ${ms(polling.p50)}, p99 ${ms(polling.p99)}`,
      ...(result.postgres
        ? [`PostgreSQL bus p50 ${ms(result.postgres.p50)}, p99 ${ms(result.postgres.p99)}`]
        : []),
    ],
    series: [
      { name: 'RedisSignalBus (pub/sub)', samples: samples.bus },
      ...(samples.postgres
        ? [{ name: 'PostgresSignalBus (LISTEN/NOTIFY)', samples: samples.postgres }]
        : []),
      {
        name: `polling baseline (GET every ${options.pollIntervalMs} ms)`,
        samples: samples.polling,
      },
    ],
    xTitle: 'cancel to abort, ms (log scale)',
    logX: true,
    target: { ms: 15, label: 'bus p99 target 15 ms' },
  });
  return [{ name: 'bench-cancel-latency', svg: await vegaLiteToSvg(spec) }];
}

/** (i): the stream gap of a handover against a client's immediate retry and new runs, from the same run. */
export async function handoverGapCharts(result: HandoverGapResult): Promise<BenchChart[]> {
  const auto = result.rows.find((row) => row.mode === 'auto');
  const client = result.rows.find((row) => row.mode === 'client');
  const series = [
    { name: 'auto: handover notice -> join with Last-Event-ID', samples: auto?.gapSamples ?? [] },
    { name: 'client: RUN_INTERRUPTED -> same POST at once', samples: client?.gapSamples ?? [] },
    {
      name: 'baseline: new runs POSTed at once, to first event',
      samples: client?.baselineSamples ?? [],
    },
  ].filter((s) => s.samples.length > 0);
  if (series.length === 0) return [];
  const spec = ecdfSpec({
    title: '(i) Handover gap vs client retry',
    facts: [
      `${result.options.runs} runs per mode on the holder, SIGTERM with no drain; gap = interruption reaching the client to the continuation's first event`,
      series.map((s) => `${s.name.split(':')[0]} p50 ${ms(median(s.samples))}`).join('; '),
    ],
    series,
    xTitle: 'gap, ms',
  });
  return [{ name: 'bench-handover-gap', svg: await vegaLiteToSvg(spec) }];
}

/** (k): per setup, SIGTERM to the holder's exit, and in auto with a survivor the last run continued. */
export async function drainModesCharts(result: DrainModesResult): Promise<BenchChart[]> {
  const values = result.rows.flatMap((row) => {
    const setup = `${row.variant.mode}${row.variant.survivor ? ', with survivor' : ', holder alone'}`;
    const bars =
      row.exitMs === undefined
        ? []
        : [{ setup, measure: 'SIGTERM to holder exit', ms: row.exitMs }];
    if (row.lastContinuedMs !== undefined)
      bars.push({ setup, measure: 'SIGTERM to last run continued', ms: row.lastContinuedMs });
    return bars;
  });
  if (values.length === 0) return [];
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: {
      text: `(k) Drain of ${result.options.runs} runs in flight, RESUME_MODE auto vs client`,
      subtitle: [
        'SHUTDOWN_DRAIN_TIMEOUT_MS=0; every run saved resumable or continued, none lost (see the table)',
      ],
    },
    config: CHART_CONFIG,
    data: { values },
    width: CHART_WIDTH_PX - 230,
    height: { step: 22 },
    layer: [
      {
        name: 'drain_bars',
        mark: { type: 'bar' },
        encoding: {
          y: { field: 'setup', type: 'nominal', title: null, sort: null },
          yOffset: { field: 'measure', type: 'nominal' },
          x: { field: 'ms', type: 'quantitative', title: 'ms after SIGTERM' },
          color: {
            field: 'measure',
            type: 'nominal',
            scale: { range: ['#1f77b4', '#2ca02c'] },
            legend: { title: null },
          },
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 4, fontSize: 11 },
        encoding: {
          y: { field: 'setup', type: 'nominal', sort: null },
          yOffset: { field: 'measure', type: 'nominal' },
          x: { field: 'ms', type: 'quantitative' },
          text: { field: 'ms', type: 'quantitative', format: ',.0f' },
        },
      },
    ],
  } as TopLevelSpec;
  return [{ name: 'bench-drain-modes', svg: await vegaLiteToSvg(spec) }];
}

/** What a subject of (l) persists to, for its line's dash: the floor dotted, the module solid, the peer dashed. */
function persistenceOf(row: ThroughputResult['rows'][number]): string {
  if (row.kind === 'floor') return 'no persistence';
  if (row.kind === 'module') return 'the module';
  return row.subject.replace(`${row.framework} + `, '');
}

/** (l): steps per second against runs at once, one line per subject (colour: framework; dash: persistence), from the same run. */
export async function throughputCharts(result: ThroughputResult): Promise<BenchChart[]> {
  const values = result.rows.map((row) => ({
    subject: row.subject,
    framework: row.framework,
    persistence: persistenceOf(row),
    concurrency: row.concurrency,
    stepsPerSecond: row.stepsPerSecond,
  }));
  if (values.length === 0) return [];
  const persistences = [...new Set(values.map((v) => v.persistence))];
  const dashes = persistences.map((p) =>
    p === 'no persistence'
      ? [2, 3]
      : p === 'the module'
        ? [1, 0]
        : p.includes('async')
          ? [3, 6]
          : [8, 4],
  );
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: {
      text: '(l) Throughput on PostgreSQL: steps per second against runs at once',
      subtitle: [
        `one instance, instant model, no-op tool, ${result.options.stepsPerRun} steps per run; same run, same PostgreSQL server (costs per step: see the table)`,
        'solid: under the module (TypeORM store and event log); dotted: the framework alone, no persistence;',
        'long dashes: LangGraph with its own PostgresSaver, sync durability; short dashes: async (its default)',
      ],
    },
    config: CHART_CONFIG,
    data: { values },
    width: CHART_WIDTH_PX - 120,
    height: 340,
    mark: { type: 'line', point: true },
    encoding: {
      x: {
        field: 'concurrency',
        type: 'quantitative',
        title: 'runs at once (log scale)',
        scale: { type: 'log' },
        axis: { values: [...new Set(values.map((v) => v.concurrency))] },
      },
      y: {
        field: 'stepsPerSecond',
        type: 'quantitative',
        title: 'steps per second (log scale)',
        scale: { type: 'log' },
      },
      color: { field: 'framework', type: 'nominal', sort: null, legend: { title: 'framework' } },
      strokeDash: {
        field: 'persistence',
        type: 'nominal',
        scale: { domain: persistences, range: dashes },
        legend: null,
      },
      detail: { field: 'subject', type: 'nominal' },
      tooltip: [{ field: 'subject' }, { field: 'stepsPerSecond', format: ',.0f' }],
    },
  } as TopLevelSpec;
  return [{ name: 'bench-throughput', svg: await vegaLiteToSvg(spec) }];
}
