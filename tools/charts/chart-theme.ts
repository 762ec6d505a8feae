import type { Config } from 'vega-lite';

/**
 * The font every chart names, and the one {@link svgToPng} ships (npm `dejavu-fonts-ttf`), so a
 * PNG looks the same on every machine; a browser showing the SVG falls back to its sans-serif.
 */
export const CHART_FONT = 'DejaVu Sans';

/** Width of a whole chart, legends and labels included, in px: the README's text column. */
export const CHART_WIDTH_PX = 900;

/** The look all charts share: one font, labels readable at {@link CHART_WIDTH_PX}, no frame around plots. */
export const CHART_CONFIG: Config = {
  font: `${CHART_FONT}, sans-serif`,
  background: 'white',
  padding: 12,
  view: { stroke: null },
  title: {
    fontSize: 15,
    anchor: 'start',
    subtitleFontSize: 11.5,
    subtitleColor: '#444',
    offset: 12,
  },
  axis: { labelFontSize: 11, titleFontSize: 11.5, titleFontWeight: 'normal', gridColor: '#e4e4e4' },
  header: { labelFontSize: 11.5 },
  legend: {
    labelFontSize: 11,
    titleFontSize: 11.5,
    orient: 'top',
    direction: 'horizontal',
    columnPadding: 12,
    labelLimit: 240,
    layout: { top: { anchor: 'start', direction: 'vertical', margin: 4 } },
  } as unknown as Config['legend'],
};
