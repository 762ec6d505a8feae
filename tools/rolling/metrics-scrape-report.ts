import { renderTable } from '../bench/bench-table';
import type { InstanceMetrics } from './metrics-scraper';

/** `a 3, b 1` from `{ a: 3, b: 1, c: 0 }`, keys in order, zeros left out; `-` when nothing is left. */
function counts(values: Record<string, number>, digits = 0): string {
  const entries = Object.entries(values)
    .filter(([, value]) => Number(value.toFixed(digits)) !== 0)
    .sort(([a], [b]) => a.localeCompare(b));
  return entries.length
    ? entries.map(([key, value]) => `${key} ${value.toFixed(digits)}`).join(', ')
    : '-';
}

/**
 * The "metrics scrape" table of a proof's report: per instance, the scrapes with and without a
 * sample, the most runs in flight seen, and the counters as last scraped (runs ended by
 * outcome, resumes by mode, seconds per shutdown phase). Counters after an instance's last
 * scrape are not in it: a shutdown's last phase may end after the last answer. Without any
 * sample, one line saying why, since the instances may run without the endpoint.
 */
export function formatMetricsScrape(series: readonly InstanceMetrics[]): string {
  const sampled = series.filter((instance) => instance.samples.length > 0);
  if (sampled.length === 0) {
    const why =
      [...new Set(series.map((instance) => instance.lastMiss).filter(Boolean))].join('; ') ||
      'no instance scraped';
    return `metrics scrape: no samples from GET /metrics (${why})`;
  }
  const table = renderTable(
    [
      { heading: 'instance' },
      { heading: 'samples / misses', align: 'right' },
      { heading: 'max in flight', align: 'right' },
      { heading: 'agent_runs_total by outcome' },
      { heading: 'resumes by mode' },
      { heading: 'shutdown s by phase' },
    ],
    series.map((instance) => {
      const last = instance.samples[instance.samples.length - 1];
      const inFlight = instance.samples
        .map((sample) => sample.inFlight)
        .filter((value): value is number => value !== undefined);
      return [
        instance.name,
        `${instance.samples.length} / ${instance.misses}`,
        inFlight.length ? String(Math.max(...inFlight)) : '-',
        last ? counts(last.runsTotal) : '-',
        last ? counts(last.resumesTotal) : '-',
        last ? counts(last.shutdownSeconds, 2) : '-',
      ];
    }),
  );
  return [
    'metrics scrape (GET /metrics of each live instance every 250 ms; counters as last scraped)',
    '',
    table,
  ].join('\n');
}
