/** Which side of its column a cell is padded towards. */
export type Align = 'left' | 'right';

/** One column of a table: its heading and how its cells line up. */
export interface Column {
  heading: string;
  align?: Align;
}

/**
 * Renders rows as plain text with aligned columns, so the output can be pasted into a
 * README or a terminal as is. Numbers read best right-aligned, names left-aligned.
 *
 * @example
 * renderTable([{ heading: 'N' }, { heading: 'ms', align: 'right' }], [['100', '812']]);
 */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
): string {
  const widths = columns.map((column, i) =>
    Math.max(column.heading.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    columns
      .map((column, i) => {
        const cell = cells[i] ?? '';
        return column.align === 'right' ? cell.padStart(widths[i]) : cell.padEnd(widths[i]);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(columns.map((column) => column.heading)), rule, ...rows.map(line)].join('\n');
}

/** A duration in microseconds with a fixed number of decimals, e.g. `12.34 µs`. */
export function formatMicros(micros: number, decimals = 2): string {
  return `${micros.toFixed(decimals)} µs`;
}
