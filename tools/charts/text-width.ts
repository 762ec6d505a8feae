import * as vega from 'vega';

/** Advance widths of DejaVu Sans, in em, by character class: close enough to lay out labels and legends. */
const NARROW = new Set(" ijlI.,:;!|'()[]{}/\\-`");
const WIDE = new Set('mwMW%@');

/**
 * The width of `text` in DejaVu Sans at `fontSize` px, estimated from the font's advance
 * widths by class (narrow 0.3 em, wide 0.95, capitals 0.72, the rest 0.62; bold 8% wider).
 * Vega without a canvas guesses 0.8 em for every character, which spreads legends and axis
 * titles far wider than the text they hold.
 *
 * @example
 * textWidthPx('serving', 11); // 47
 */
export function textWidthPx(text: string, fontSize: number, bold = false): number {
  let em = 0;
  for (const char of text)
    em += NARROW.has(char) ? 0.3 : WIDE.has(char) ? 0.95 : char >= 'A' && char <= 'Z' ? 0.72 : 0.62;
  return Math.round(em * fontSize * (bold ? 1.08 : 1));
}

/** The part of Vega's text measurer that it lets a caller replace (see vega-scenegraph's `widthGetter`). */
interface TextMetrics {
  width: (
    item: { fontSize?: number; fontWeight?: string | number; limit?: number },
    text?: string,
  ) => number;
}

/**
 * Makes Vega lay text out with {@link textWidthPx} instead of its 0.8 em guess; idempotent. Vega
 * truncates with the same function, so labels also keep to their `labelLimit` correctly.
 */
export function useDejaVuTextWidths(): void {
  const metrics = (vega as unknown as { textMetrics: TextMetrics }).textMetrics;
  metrics.width = (item, text) => {
    const size = item.fontSize ?? 11;
    const bold = item.fontWeight === 'bold' || Number(item.fontWeight) >= 600;
    return textWidthPx(String(text ?? '').trim(), size, bold);
  };
}
