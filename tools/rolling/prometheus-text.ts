/** One sample line of the Prometheus text format: `name{label="value",…} value [timestamp]`. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  /** The value; `+Inf`, `-Inf` and `NaN` as the numbers they name. */
  value: number;
}

/** A line that is neither a comment, blank, nor a well-formed sample. */
export class PrometheusTextError extends Error {
  override readonly name = 'PrometheusTextError';
  readonly code = 'PROMETHEUS_TEXT_INVALID';

  constructor(lineNumber: number, line: string, why: string) {
    super(
      `line ${lineNumber} of the metrics text is not a Prometheus sample (${why}): ${line.slice(0, 120)}; the endpoint must serve text format 0.0.4`,
    );
  }
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', n: '\n' };

/** The labels in braces starting at `line[at]` (`{`), and the index after the closing brace. */
function readLabels(
  line: string,
  at: number,
  fail: (why: string) => never,
): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = at + 1;
  for (;;) {
    while (line[i] === ' ' || line[i] === ',') i++;
    if (line[i] === '}') return { labels, end: i + 1 };
    const name = LABEL_NAME.exec(line.slice(i))?.[0];
    if (!name) return fail('bad label name');
    i += name.length;
    if (line[i] !== '=' || line[i + 1] !== '"') return fail(`label ${name} has no quoted value`);
    i += 2;
    let value = '';
    for (; i < line.length && line[i] !== '"'; i++) {
      if (line[i] !== '\\') value += line[i];
      else value += ESCAPES[line[++i]] ?? `\\${line[i]}`;
    }
    if (i >= line.length) return fail(`label ${name}'s value is not closed`);
    labels[name] = value;
    i++;
  }
}

/** A sample value as Prometheus reads it (Go float syntax: `+Inf`, `-Inf` and `NaN` in any case; prom-client writes `Nan`). */
function readValue(text: string): number {
  const word = text.toLowerCase();
  if (word === '+inf' || word === 'inf') return Number.POSITIVE_INFINITY;
  if (word === '-inf') return Number.NEGATIVE_INFINITY;
  if (word === 'nan') return Number.NaN;
  return text.trim() === '' ? Number.NaN : Number(text);
}

/**
 * Every sample of a Prometheus text exposition (format 0.0.4, what prom-client serves), in
 * order; `# HELP` / `# TYPE` comments and blank lines are skipped, a sample's timestamp is
 * dropped. Throws {@link PrometheusTextError} on a line it cannot read.
 *
 * @example
 * parsePrometheusText('agent_runs_total{outcome="completed"} 3\n');
 * // [{ name: 'agent_runs_total', labels: { outcome: 'completed' }, value: 3 }]
 */
export function parsePrometheusText(text: string): PrometheusSample[] {
  const samples: PrometheusSample[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const fail = (why: string): never => {
      throw new PrometheusTextError(index + 1, line, why);
    };
    const name = NAME.exec(line)?.[0];
    if (!name) return fail('no metric name');
    let rest = line.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) {
      const read = readLabels(rest, 0, fail);
      labels = read.labels;
      rest = rest.slice(read.end);
    }
    const [valueText] = rest.trim().split(/\s+/);
    const value = readValue(valueText ?? '');
    if (Number.isNaN(value) && valueText.toLowerCase() !== 'nan')
      return fail(`value ${JSON.stringify(valueText)} is not a number`);
    samples.push({ name, labels, value });
  });
  return samples;
}

/**
 * The sum of the samples named `name`, per value of `label` (samples without it are left out).
 *
 * @example
 * sumBy(samples, 'agent_runs_total', 'outcome'); // { completed: 3, interrupted: 1 }
 */
export function sumBy(
  samples: readonly PrometheusSample[],
  name: string,
  label: string,
): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const sample of samples) {
    const key = sample.labels[label];
    if (sample.name === name && key !== undefined) sums[key] = (sums[key] ?? 0) + sample.value;
  }
  return sums;
}

/** The sum of the samples named `name` over all their labels; undefined when there is none. */
export function total(samples: readonly PrometheusSample[], name: string): number | undefined {
  const values = samples.filter((sample) => sample.name === name).map((sample) => sample.value);
  return values.length ? values.reduce((sum, value) => sum + value, 0) : undefined;
}
