import { readPngHeader } from '../charts/png-header';
import { svgToPng } from '../charts/svg-png';
import { timelineSvg } from './timeline-chart';
import { timelineRows } from './timeline-data';
import { sampleRolloutRecord } from './timeline-fixture';

/** The `aria-label`s of the items of one named mark, e.g. `lane_phases`. */
function itemsOf(svg: string, mark: string): string[] {
  const groups = svg
    .split(`class="mark-`)
    .filter((part) => part.includes(`role-mark ${mark}_marks"`));
  return groups.flatMap((group) =>
    [...group.split('</g>')[0].matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1]),
  );
}

describe('the rollout timeline chart', () => {
  const heading = {
    title: 'Rolling deployment, SIGTERM',
    facts: ['2 runs interrupted, 3 resumed'],
  };
  let svg: string;
  let withoutMetrics: string;

  beforeAll(async () => {
    svg = await timelineSvg(timelineRows(sampleRolloutRecord()), heading);
    withoutMetrics = await timelineSvg(
      timelineRows({ ...sampleRolloutRecord(), metrics: [] }),
      heading,
    );
  });

  it('draws one lane per instance, named, in launch order', () => {
    const names = [...svg.matchAll(/aria-label="Title text '((?:old|new)-\d)'"/g)].map((m) => m[1]);
    expect(names).toEqual(['old-1', 'old-2', 'new-1', 'new-2']);
  });

  it("draws each instance's phases as bands", () => {
    const phases = itemsOf(svg, 'lane_phases');
    expect(phases).toHaveLength(7);
    expect(phases).toContain('fromS: 4; toS: 5.5; phase: draining');
  });

  it('draws the signals and exits as rules on the lanes', () => {
    expect(itemsOf(svg, 'lane_marks').map((label) => label.replace(/^atS: [^;]*; /, ''))).toEqual([
      'mark: SIGTERM',
      'mark: exited',
      'mark: SIGKILL',
      'mark: exited',
    ]);
  });

  it('stacks the run moments per bin', () => {
    const bars = itemsOf(svg, 'run_moments');
    expect(bars).toHaveLength(5);
    expect(bars.filter((label) => label.includes('kind: interrupted'))).toEqual([
      'fromS: 5 – 5.5; runs per, 0.5 s: 2; kind: interrupted',
    ]);
  });

  it('draws the clients waiting as one area', () => {
    expect(svg.match(/role-mark clients_waiting_marks"/g)).toHaveLength(1);
  });

  it('draws runs in flight from /metrics, and says so in its legend', () => {
    expect(svg).toContain('runs in flight (/metrics)');
    expect(itemsOf(svg, 'lane_in_flight').length).toBeGreaterThan(0);
  });

  it('lists in its legends only the phases and marks it draws', async () => {
    const killedOnly = timelineRows({
      ...sampleRolloutRecord(),
      instances: sampleRolloutRecord().instances.slice(1),
    });
    const legendOf = (chart: string) =>
      [...chart.matchAll(/Symbol legend[^"]*with \d+ values: ([^"]*)"/g)].map((m) => m[1]);
    expect(legendOf(await timelineSvg(killedOnly, heading))).toEqual([
      'starting, serving',
      'SIGKILL, exited',
      'interrupted, cut off, resumed',
    ]);
  });

  it('leaves runs in flight out when no instance answered /metrics', () => {
    expect(withoutMetrics).not.toContain('runs in flight');
  });

  it('fits the README column and renders to a PNG twice its size', () => {
    const [, width, height] = /^<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg) ?? [];
    expect(Number(width)).toBeLessThanOrEqual(920);
    expect(readPngHeader(svgToPng(svg))).toEqual({
      widthPx: 2 * Number(width),
      heightPx: 2 * Number(height),
    });
  });
});
