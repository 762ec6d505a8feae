/** One row of the `deps:latest` report. */
export interface VersionRow {
  name: string;
  newest: string;
  /** The version the app got, or why it has none. */
  installed: string;
}

/** The `deps:latest` report: which versions were tested, then each proof's result. */
export function versionsTable(
  rows: VersionRow[],
  proofs: Array<{ name: string; result: string }>,
): string {
  const width = (values: string[]) => Math.max(...values.map((value) => value.length));
  const [a, b] = [
    width(['package', ...rows.map((row) => row.name)]),
    width(['newest', ...rows.map((row) => row.newest)]),
  ];
  const line = (cells: string[]) =>
    `| ${cells[0].padEnd(a)} | ${cells[1].padEnd(b)} | ${cells[2]} |`;
  const versions = [
    line(['package', 'newest', 'installed']),
    line(['-'.repeat(a), '-'.repeat(b), '---']),
    ...rows.map((row) => line([row.name, row.newest, row.installed])),
  ];
  const c = width(['proof', ...proofs.map((proof) => proof.name)]);
  const results = [
    `| ${'proof'.padEnd(c)} | result |`,
    `| ${'-'.repeat(c)} | --- |`,
    ...proofs.map((proof) => `| ${proof.name.padEnd(c)} | ${proof.result} |`),
  ];
  return [...versions, '', ...results].join('\n');
}
