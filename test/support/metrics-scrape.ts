import { parsePrometheusText, type PrometheusSample } from '../../tools/rolling/prometheus-text';

/** One scrape of `GET /metrics`. */
export interface Scrape {
  status: number;
  contentType: string | null;
  text: string;
  /** The value of one series, e.g. `value('agent_runs_total', { outcome: 'completed' })`; undefined when absent. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

const sameLabels = (sample: PrometheusSample, labels: Record<string, string>) =>
  Object.keys(sample.labels).length === Object.keys(labels).length &&
  Object.entries(labels).every(([key, value]) => sample.labels[key] === value);

/** Scrapes a service's Prometheus endpoint, as Prometheus does: a plain GET, no token. */
export async function scrape(baseUrl: string): Promise<Scrape> {
  const response = await fetch(`${baseUrl}/metrics`);
  const text = await response.text();
  const samples = response.status === 200 ? parsePrometheusText(text) : [];
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    value: (name, labels = {}) =>
      samples.find((sample) => sample.name === name && sameLabels(sample, labels))?.value,
  };
}
