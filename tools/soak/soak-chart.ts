import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, CHART_WIDTH_PX } from '../charts/chart-theme';
import { vegaLiteToSvg } from '../charts/vega-lite-svg';
import type { SoakMinute } from './soak-minutes';
import type { HeapAfterGc, SoakSample } from './soak-sample';

/** What the chart says above its panels. */
export interface SoakChartTitle {
  title: string;
  /** Short lines under the title: the slopes and the audit's verdict. */
  facts: string[];
}

const SERIES_COLORS = { RSS: '#1f77b4', 'heap used': '#ff7f0e', 'heap after full GC': '#9467bd' };
const PLOT_WIDTH_PX = CHART_WIDTH_PX - 110;
const MB = 1024 * 1024;

/**
 * The Vega-Lite spec of a soak, on one axis of minutes since the soak began: RSS, heap used and
 * the heap after each full collection (each sample as a faint line, broken at each restart, and
 * the mean of each minute as a point at the minute's middle), a dashed rule at each SIGTERM-and-restart, and the runs the store
 * recorded completed in each minute (bars).
 */
export function soakChartSpec(
  minutes: readonly SoakMinute[],
  samples: readonly SoakSample[],
  gcs: readonly HeapAfterGc[],
  restartsAtMin: readonly number[],
  heading: SoakChartTitle,
): TopLevelSpec {
  const perMinute = minutes.flatMap((m) =>
    (
      [
        ['RSS', m.rssMb],
        ['heap used', m.heapUsedMb],
        ['heap after full GC', m.heapAfterGcMb],
      ] as const
    ).flatMap(([series, mb]) => (mb === undefined ? [] : [{ atMin: m.minute - 0.5, series, mb }])),
  );
  const raw = [
    ...samples.flatMap((s) => [
      ...(s.rssBytes === undefined
        ? []
        : [{ atMin: s.atMs / 60_000, life: s.life, series: 'RSS', mb: s.rssBytes / MB }]),
      ...(s.heapUsedBytes === undefined
        ? []
        : [
            { atMin: s.atMs / 60_000, life: s.life, series: 'heap used', mb: s.heapUsedBytes / MB },
          ]),
    ]),
    ...gcs.map((gc) => ({
      atMin: gc.atMs / 60_000,
      life: gc.life,
      series: 'heap after full GC',
      mb: gc.afterMb,
    })),
  ];
  const restarts = restartsAtMin.map((atMin) => ({ atMin, mark: 'SIGTERM and restart' }));
  const runs = minutes.map((m) => ({
    fromMin: m.minute - 0.95,
    toMin: m.minute - 0.05,
    runs: m.runsCompleted ?? 0,
  }));
  // One tick a minute up to 20 minutes, then fewer.
  const step = Math.max(1, Math.ceil(minutes.length / 20));
  const ticks = Array.from({ length: Math.floor(minutes.length / step) + 1 }, (_, i) => i * step);
  const x = (field: string, axis: boolean) => ({
    field,
    type: 'quantitative' as const,
    scale: { domain: [0, minutes.length], nice: false, zero: true },
    axis: {
      values: ticks,
      format: 'd',
      ...(axis
        ? { title: 'minutes since the soak began' }
        : { title: null, labels: false, ticks: false, domain: false }),
    },
  });
  const color = {
    field: 'series',
    type: 'nominal' as const,
    scale: { domain: Object.keys(SERIES_COLORS), range: Object.values(SERIES_COLORS) },
    legend: { title: 'memory' },
  };
  const y = { field: 'mb', type: 'quantitative' as const, title: 'MB', scale: { zero: true } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: heading.title, subtitle: heading.facts },
    config: CHART_CONFIG,
    spacing: 12,
    resolve: { scale: { x: 'shared' } },
    vconcat: [
      {
        width: PLOT_WIDTH_PX,
        height: 230,
        layer: [
          {
            data: { values: raw },
            mark: { type: 'line', strokeWidth: 1, opacity: 0.35 },
            encoding: {
              x: x('atMin', false),
              y,
              color,
              detail: { field: 'life', type: 'nominal' },
            },
          },
          {
            data: { values: perMinute },
            mark: { type: 'point', filled: true, size: 45 },
            encoding: { x: x('atMin', false), y, color },
          },
          // Without restarts, an empty layer would still make a legend of no size, which no renderer takes.
          ...(restarts.length === 0
            ? []
            : [
                {
                  data: { values: restarts },
                  mark: { type: 'rule' as const, strokeDash: [4, 3], strokeWidth: 1.5 },
                  encoding: {
                    x: x('atMin', false),
                    stroke: {
                      field: 'mark',
                      type: 'nominal' as const,
                      scale: { range: ['#d62728'] },
                      legend: { title: null },
                    },
                  },
                },
              ]),
        ],
      },
      {
        data: { values: runs },
        width: PLOT_WIDTH_PX,
        height: 110,
        mark: { type: 'rect', color: '#2e7d4f', opacity: 0.85 },
        encoding: {
          x: x('fromMin', true),
          x2: { field: 'toMin' },
          y: {
            field: 'runs',
            type: 'quantitative',
            title: ['runs completed', 'per minute'],
            axis: { tickMinStep: 1 },
          },
          y2: { datum: 0 },
        },
      },
    ],
  };
}

/** The soak's chart as an SVG document (see {@link soakChartSpec}). */
export function soakChartSvg(
  minutes: readonly SoakMinute[],
  samples: readonly SoakSample[],
  gcs: readonly HeapAfterGc[],
  restartsAtMin: readonly number[],
  heading: SoakChartTitle,
): Promise<string> {
  return vegaLiteToSvg(soakChartSpec(minutes, samples, gcs, restartsAtMin, heading));
}
