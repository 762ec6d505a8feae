import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, CHART_WIDTH_PX } from '../charts/chart-theme';
import { vegaLiteToSvg } from '../charts/vega-lite-svg';
import type { TimelineRows } from './timeline-data';

/** What the picture says above its panels. */
export interface TimelineTitle {
  title: string;
  /** Short lines under the title: the numbers that matter. */
  facts: string[];
}

const PHASE_COLORS = {
  starting: '#cfd8e3',
  serving: '#bfe3c4',
  draining: '#f7cf8f',
  'runs in flight (/metrics)': '#2e7d4f',
};
const MARK_COLORS = { SIGTERM: '#d62728', SIGKILL: '#111111', exited: '#7f7f7f' };
const RUN_COLORS = {
  interrupted: '#ff7f0e',
  'cut off': '#8c2d04',
  'handed over': '#6a51a3',
  resumed: '#2ca02c',
};

/** Width of the plots, in px: the chart's width less the lane names and padding. */
const PLOT_WIDTH_PX = CHART_WIDTH_PX - 110;
const LANE_HEIGHT_PX = 26;

const scaleOf = (colors: Record<string, string>, keep: (key: string) => boolean = () => true) => {
  const domain = Object.keys(colors).filter(keep);
  return { domain, range: domain.map((key) => colors[key as keyof typeof colors]) };
};

/**
 * The Vega-Lite spec of a rollout's timeline, three panels on one time axis (s since the
 * clients started): a lane per instance (phases as bands, signals and exits as rules, runs in flight from `/metrics` as an area), the clients' run moments per
 * bin (stacked bars), and the number of clients waiting for events between losing their
 * stream and the next event.
 */
export function timelineSpec(rows: TimelineRows, heading: TimelineTitle): TopLevelSpec {
  const x = (field: string, axis: boolean) => ({
    field,
    type: 'quantitative' as const,
    scale: { domain: rows.domain, nice: false, zero: false },
    axis: axis
      ? { title: 'seconds since the clients started', tickMinStep: 1, format: 'd' }
      : { title: null, labels: false, ticks: false, domain: false },
  });
  const hasMetrics = rows.inFlight.length > 0;
  const inFlightMax = Math.max(1, ...rows.inFlight.map((row) => row.runs));
  const laneValues = [
    ...rows.phases.map((row) => ({ layer: 'phase', ...row })),
    ...rows.marks.map((row) => ({ layer: 'mark', ...row })),
    ...rows.inFlight.map((row) => ({ layer: 'inFlight', ...row })),
  ];
  const kinds = new Set<string>(rows.runBins.map((bin) => bin.kind));
  const marks = new Set<string>(rows.marks.map((row) => row.mark));
  const phases = new Set<string>(rows.phases.map((row) => row.phase));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: heading.title, subtitle: heading.facts },
    config: CHART_CONFIG,
    spacing: 10,
    resolve: { scale: { x: 'shared' } },
    vconcat: [
      {
        data: { values: laneValues },
        spacing: 3,
        facet: {
          row: {
            field: 'lane',
            type: 'nominal',
            sort: rows.lanes,
            title: null,
            header: { labelAngle: 0, labelAlign: 'right', labelOrient: 'left' },
          },
        },
        spec: {
          width: PLOT_WIDTH_PX,
          height: LANE_HEIGHT_PX,
          layer: [
            {
              name: 'lane_phases',
              transform: [{ filter: "datum.layer === 'phase'" }],
              mark: { type: 'rect' },
              encoding: {
                x: x('fromS', false),
                x2: { field: 'toS' },
                fill: {
                  field: 'phase',
                  type: 'nominal',
                  scale: scaleOf(
                    PHASE_COLORS,
                    (k) => phases.has(k) || (hasMetrics && k.startsWith('runs')),
                  ),
                  legend: { title: 'instance', symbolType: 'square' },
                },
              },
            },
            {
              name: 'lane_in_flight',
              transform: [{ filter: "datum.layer === 'inFlight'" }],
              mark: { type: 'area', interpolate: 'step-after', opacity: 0.85 },
              encoding: {
                x: x('atS', false),
                y: {
                  field: 'runs',
                  type: 'quantitative',
                  scale: { domain: [0, inFlightMax] },
                  axis: null,
                },
                fill: { datum: 'runs in flight (/metrics)' },
              },
            },
            {
              name: 'lane_marks',
              transform: [{ filter: "datum.layer === 'mark'" }],
              mark: { type: 'rule', strokeWidth: 2 },
              encoding: {
                x: x('atS', false),
                stroke: {
                  field: 'mark',
                  type: 'nominal',
                  scale: scaleOf(MARK_COLORS, (k) => marks.has(k)),
                  legend: { title: null },
                },
              },
            },
          ],
        },
      },
      {
        name: 'run_moments',
        data: { values: rows.runBins },
        width: PLOT_WIDTH_PX,
        height: 80,
        mark: { type: 'bar' },
        encoding: {
          x: { ...x('fromS', false), bin: 'binned' },
          x2: { field: 'toS' },
          y: {
            field: 'count',
            type: 'quantitative',
            stack: 'zero',
            title: ['runs per', `${rows.binS} s`],
            axis: { tickMinStep: 1 },
          },
          color: {
            field: 'kind',
            type: 'nominal',
            scale: scaleOf(RUN_COLORS, (k) => kinds.has(k)),
            legend: { title: 'runs' },
          },
        },
      },
      {
        name: 'clients_waiting',
        data: { values: rows.waiting },
        width: PLOT_WIDTH_PX,
        height: 70,
        mark: { type: 'area', interpolate: 'step-after', color: '#8c6bb1' },
        encoding: {
          x: x('atS', true),
          y: {
            field: 'clients',
            type: 'quantitative',
            title: ['clients', 'waiting'],
            axis: { tickMinStep: 1 },
          },
        },
      },
    ],
  } as TopLevelSpec;
}

/** The timeline as an SVG document. */
export function timelineSvg(rows: TimelineRows, heading: TimelineTitle): Promise<string> {
  return vegaLiteToSvg(timelineSpec(rows, heading));
}
