import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChartFiles } from './chart-files';
import { readPngHeader } from './png-header';
import { svgToPng } from './svg-png';
import { vegaLiteToSvg } from './vega-lite-svg';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120"><rect width="300" height="120" fill="#bfe3c4"/><text x="10" y="60" font-family="DejaVu Sans" font-size="14">old-1 serving</text></svg>';

describe('svgToPng', () => {
  it('renders a PNG twice the size of the SVG', () => {
    expect(readPngHeader(svgToPng(SVG))).toEqual({ widthPx: 600, heightPx: 240 });
  });

  it('renders text with the shipped font, not blank', () => {
    const withText = svgToPng(SVG);
    const withoutText = svgToPng(SVG.replace(/<text[^]*<\/text>/, ''));
    expect(withText.length).toBeGreaterThan(withoutText.length);
  });
});

describe('vegaLiteToSvg', () => {
  it('renders a spec with its marks and the charts font', async () => {
    const svg = await vegaLiteToSvg({
      config: { font: 'DejaVu Sans' },
      data: { values: [{ ms: 3 }, { ms: 5 }] },
      mark: 'tick',
      encoding: { x: { field: 'ms', type: 'quantitative' } },
    });
    expect(svg).toMatch(/^<svg /);
    expect(svg.match(/aria-roledescription="tick"/g)).toHaveLength(2);
    expect(svg).toContain('font-family="DejaVu Sans"');
  });
});

describe('ChartFiles', () => {
  it('writes the SVG and its PNG into every directory', () => {
    const root = mkdtempSync(join(tmpdir(), 'chart-files-'));
    try {
      const files = new ChartFiles([join(root, 'run'), join(root, 'published')]);
      expect(files.write('rolling-test', SVG)).toHaveLength(4);
      for (const dir of ['run', 'published']) {
        expect(readFileSync(join(root, dir, 'rolling-test.svg'), 'utf8')).toBe(SVG);
        expect(readPngHeader(readFileSync(join(root, dir, 'rolling-test.png'))).widthPx).toBe(600);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a name that is not a plain file name', () => {
    expect(() => new ChartFiles([tmpdir()]).write('../escape', SVG)).toThrow(/lower-case letters/);
  });
});
