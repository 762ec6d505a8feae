import { readPngHeader } from '../charts/png-header';
import { svgToPng } from '../charts/svg-png';
import { summarize } from './bench-stats';
import { crossInstanceCancelCharts, drainModesCharts, handoverGapCharts } from './bench-charts';
import type { CrossInstanceCancelResult } from './cross-instance-cancel.bench';
import type { DrainModesResult } from './drain-modes.bench';
import type { HandoverGapResult, HandoverGapRow } from './handover-gap.bench';

/** The `aria-label`s of the items of one named mark. */
function itemsOf(svg: string, mark: string): string[] {
  const groups = svg
    .split('class="mark-')
    .filter((part) => part.includes(`role-mark ${mark}_marks"`));
  return groups.flatMap((group) =>
    [...group.split('</g>')[0].matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1]),
  );
}

const bus = [2, 3, 3, 4, 14];
const polling = [10, 40, 60, 90, 104];
const cancel: CrossInstanceCancelResult = {
  options: { runs: 5, warmupRuns: 0, maxGapMs: 100, abortTimeoutMs: 2_000, pollIntervalMs: 100 },
  bus: summarize(bus),
  polling: summarize(polling),
  samples: { bus, polling },
};

describe('the cancel latency chart', () => {
  let svg: string;
  beforeAll(async () => {
    [{ svg }] = await crossInstanceCancelCharts(cancel);
  });

  it('draws the distribution of each implementation from its raw samples', () => {
    expect(itemsOf(svg, 'ecdf')).toHaveLength(2);
    expect(svg).toContain('RedisSignalBus (pub/sub)');
    expect(svg).toContain('polling baseline (GET every 100 ms)');
  });

  it('marks the p99 target and states both medians', () => {
    expect(svg).toContain('bus p99 target 15 ms');
    expect(svg).toContain('bus p50 3.0 ms');
    expect(svg).toContain('p50 60.0 ms');
  });

  it('renders to a PNG twice the size of its SVG, within the README column', () => {
    const [, width, height] = /^<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg) ?? [];
    expect(Number(width)).toBeLessThanOrEqual(920);
    expect(readPngHeader(svgToPng(svg))).toEqual({
      widthPx: 2 * Number(width),
      heightPx: 2 * Number(height),
    });
  });
});

describe('the handover gap chart', () => {
  const row = (
    mode: 'auto' | 'client',
    gapSamples: number[],
    baselineSamples?: number[],
  ): HandoverGapRow => ({
    mode,
    runs: gapSamples.length,
    interrupted: gapSamples.length,
    completed: gapSamples.length,
    gap: gapSamples.length ? summarize(gapSamples) : undefined,
    gapSamples,
    baselineSamples,
    exitCode: 0,
    problems: [],
  });

  it('draws the auto gap, the client retry gap and the baseline', async () => {
    const result = {
      options: { runs: 3 },
      rows: [row('auto', [500, 530, 580]), row('client', [330, 340, 400], [80, 90, 110])],
    } as HandoverGapResult;
    const [{ name, svg }] = await handoverGapCharts(result);
    expect(name).toBe('bench-handover-gap');
    expect(itemsOf(svg, 'ecdf')).toHaveLength(3);
    expect(svg).toContain('auto p50 530.0 ms; client p50 340.0 ms; baseline p50 90.0 ms');
  });

  it('draws nothing when no run completed', async () => {
    const result = { options: { runs: 3 }, rows: [row('auto', [])] } as HandoverGapResult;
    expect(await handoverGapCharts(result)).toEqual([]);
  });
});

describe('the drain modes chart', () => {
  it('draws the exit of each setup and the last continuation of auto with a survivor', async () => {
    const result = {
      options: { runs: 1000 },
      rows: [
        { variant: { mode: 'auto', survivor: true }, exitMs: 3891, lastContinuedMs: 8101 },
        { variant: { mode: 'auto', survivor: false }, exitMs: 2756 },
        { variant: { mode: 'client', survivor: true }, exitMs: 2659 },
      ],
    } as DrainModesResult;
    const [{ svg }] = await drainModesCharts(result);
    expect(itemsOf(svg, 'drain_bars')).toEqual([
      'ms after SIGTERM: 3891; setup: auto, with survivor; measure: SIGTERM to holder exit',
      'ms after SIGTERM: 8101; setup: auto, with survivor; measure: SIGTERM to last run continued',
      'ms after SIGTERM: 2756; setup: auto, holder alone; measure: SIGTERM to holder exit',
      'ms after SIGTERM: 2659; setup: client, with survivor; measure: SIGTERM to holder exit',
    ]);
  });
});
