import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, CHART_WIDTH_PX } from '../charts/chart-theme';

/** One set of samples to draw, in ms. */
export interface SampleSeries {
  name: string;
  samples: readonly number[];
}

/** What an ECDF chart shows, and how. */
export interface EcdfChart {
  title: string;
  /** Short lines under the title. */
  facts: string[];
  series: readonly SampleSeries[];
  /** The x axis title, e.g. `cancel to abort (ms)`. */
  xTitle: string;
  /** A log x axis, for series an order of magnitude apart. Default: false. */
  logX?: boolean;
  /** A dashed vertical line at a target, e.g. `{ ms: 15, label: 'target p99 15 ms' }`. */
  target?: { ms: number; label: string };
}

const COLORS = ['#1f77b4', '#ff7f0e', '#7f7f7f', '#2ca02c'];

/**
 * The Vega-Lite spec of the empirical distribution of each series, on one axis: for every
 * latency x, the fraction of its samples at or under x (a step line per series, the raw
 * samples in the spec's data). Medians and tails read off directly: where a line crosses 0.5
 * and 0.99.
 */
export function ecdfSpec(chart: EcdfChart): TopLevelSpec {
  const values = chart.series.flatMap((series) =>
    series.samples.map((ms) => ({ series: series.name, ms })),
  );
  const names = chart.series.map((series) => series.name);
  const all = values.map((value) => value.ms);
  // A log axis spans just the samples (and the target), not whole decades beyond them.
  const logDomain = [
    Math.min(...all, chart.target?.ms ?? Infinity) * 0.9,
    Math.max(...all, chart.target?.ms ?? 0) * 1.1,
  ];
  const scale = chart.logX
    ? { type: 'log' as const, domain: logDomain, nice: false }
    : { zero: true };
  // A log axis labels 1-2-5 steps only, so that its ticks read as numbers at any range.
  const logTicks = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000].filter(
    (v) => v >= logDomain[0] && v <= logDomain[1],
  );
  const x = {
    field: 'ms',
    type: 'quantitative' as const,
    title: chart.xTitle,
    scale,
    axis: chart.logX ? { values: logTicks } : {},
  };
  const layers: unknown[] = [
    {
      name: 'ecdf',
      transform: [
        {
          window: [{ op: 'cume_dist', as: 'fraction' }],
          sort: [{ field: 'ms' }],
          groupby: ['series'],
        },
      ],
      mark: { type: 'line', interpolate: 'step-after', strokeWidth: 2 },
      encoding: {
        x,
        y: {
          field: 'fraction',
          type: 'quantitative',
          title: 'fraction of samples at or under',
          axis: { format: '.0%', values: [0, 0.25, 0.5, 0.75, 0.9, 0.99] },
        },
        color: {
          field: 'series',
          type: 'nominal',
          sort: names,
          scale: { domain: names, range: COLORS.slice(0, names.length) },
          legend: { title: null, direction: 'vertical', labelLimit: 0 },
        },
      },
    },
  ];
  if (chart.target) {
    layers.push({
      name: 'target',
      data: { values: [{ ms: chart.target.ms, label: chart.target.label }] },
      layer: [
        { mark: { type: 'rule', strokeDash: [4, 3], color: '#d62728' }, encoding: { x } },
        {
          mark: { type: 'text', align: 'left', dx: 4, y: 8, color: '#d62728', fontSize: 11 },
          encoding: { x, text: { field: 'label' } },
        },
      ],
    });
  }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: chart.title, subtitle: chart.facts },
    config: CHART_CONFIG,
    data: { values },
    width: CHART_WIDTH_PX - 110,
    height: 260,
    layer: layers,
  } as TopLevelSpec;
}
