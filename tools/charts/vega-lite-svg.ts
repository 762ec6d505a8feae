import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { useDejaVuTextWidths } from './text-width';

/**
 * Renders a Vega-Lite spec to an SVG document in this process: no browser, no canvas (text
 * widths are estimated for the charts' font, see `useDejaVuTextWidths`). The spec carries its own data (`data.values`), so nothing is
 * loaded from anywhere.
 *
 * @example
 * const svg = await vegaLiteToSvg({ data: { values: [{ ms: 3 }] }, mark: 'tick', encoding: { x: { field: 'ms', type: 'quantitative' } } });
 */
export async function vegaLiteToSvg(spec: TopLevelSpec): Promise<string> {
  useDejaVuTextWidths();
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    // Releases the view's dataflow and any timer it set.
    view.finalize();
  }
}
