/** One scrape of `GET /metrics`: each sample's value by its series (`name{label="v",…}` as printed). */
export interface Scrape {
  status: number;
  contentType: string | null;
  text: string;
  /** The value of one series, e.g. `value('agent_runs_total{outcome="completed"}')`; undefined when absent. */
  value(series: string): number | undefined;
}

/** Scrapes a service's Prometheus endpoint, as Prometheus does: a plain GET, no token. */
export async function scrape(baseUrl: string): Promise<Scrape> {
  const response = await fetch(`${baseUrl}/metrics`);
  const text = await response.text();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const split = line.lastIndexOf(' ');
    samples.set(line.slice(0, split), Number(line.slice(split + 1)));
  }
  return { status: response.status, contentType: response.headers.get('content-type'), text, value: (series) => samples.get(series) };
}
