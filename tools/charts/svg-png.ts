import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { CHART_FONT } from './chart-theme';

/** The DejaVu Sans files of npm `dejavu-fonts-ttf`: the only fonts the renderer loads. */
function fontFiles(): string[] {
  const ttf = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  return ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSans-Oblique.ttf'].map((file) =>
    join(ttf, file),
  );
}

/**
 * Renders an SVG document to PNG with resvg (a prebuilt binary inside its npm package), at
 * `scale` times its own size (default 2: sharp on a high-density screen, and still sharp when
 * a README shrinks it to its column). Only the shipped DejaVu fonts are loaded, never the
 * machine's, so the same SVG gives the same PNG everywhere.
 */
export function svgToPng(svg: string, scale = 2): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    background: 'white',
    font: {
      loadSystemFonts: false,
      fontFiles: fontFiles(),
      defaultFontFamily: CHART_FONT,
      sansSerifFamily: CHART_FONT,
    },
  });
  return resvg.render().asPng();
}
