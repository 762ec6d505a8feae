import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gauge, Registry } from 'prom-client';
import { freePort } from 'dev-services';
import { waitUntil } from '../bench/wait-until';
import { MetricsScraper, type InstanceMetrics } from './metrics-scraper';

/** An HTTP server on a free port answering every request with `handler`'s status and body. */
async function serve(
  handler: () => Promise<[number, string]>,
): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer((_request, response) => {
    void handler().then(([status, body]) =>
      response.writeHead(status, { 'content-type': 'text/plain' }).end(body),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('MetricsScraper', () => {
  const registry = new Registry();
  const inFlight = new Gauge({
    name: 'agent_runs_in_flight',
    help: 'runs executing on this instance',
    registers: [registry],
  });
  const servers: Server[] = [];
  let scraper: MetricsScraper;
  const of = (name: string): InstanceMetrics | undefined =>
    scraper.series().find((series) => series.name === name);

  beforeAll(async () => {
    const withMetrics = await serve(async () => {
      inFlight.inc();
      return [200, await registry.metrics()];
    });
    const without = await serve(async () => [404, '{"statusCode":404}']);
    servers.push(withMetrics.server, without.server);
    const refused = `http://127.0.0.1:${await freePort()}`;
    const targets = [
      { name: 'with-metrics', baseUrl: withMetrics.baseUrl },
      { name: 'no-endpoint', baseUrl: without.baseUrl },
      { name: 'gone', baseUrl: refused },
    ];
    scraper = new MetricsScraper(() => targets, { intervalMs: 20, timeoutMs: 1_000 });
    scraper.start();
    await waitUntil(
      async () =>
        (of('with-metrics')?.samples.length ?? 0) >= 3 && (of('gone')?.misses ?? 0) >= 3
          ? true
          : undefined,
      'three scrapes',
      10_000,
      10,
    );
    await scraper.stop();
  });

  afterAll(async () => {
    await scraper.stop();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('keeps a time series of the runs in flight, in scrape order', () => {
    const samples = of('with-metrics')!.samples;
    expect(samples.map((s) => s.inFlight)).toEqual(samples.map((_, i) => i + 1));
    expect(samples.map((s) => s.atMs)).toEqual(
      [...samples.map((s) => s.atMs)].sort((a, b) => a - b),
    );
  });

  it('records a 404 as a scrape without a sample, not an error', () => {
    expect(of('no-endpoint')).toMatchObject({ samples: [], lastMiss: 'HTTP 404' });
    expect(of('no-endpoint')!.misses).toBeGreaterThanOrEqual(3);
  });

  it('records a refused connection as a scrape without a sample', () => {
    expect(of('gone')!.samples).toEqual([]);
    expect(of('gone')!.lastMiss).toMatch(/ECONNREFUSED/);
  });

  it('scrapes nothing more once stopped', async () => {
    const count = of('with-metrics')!.samples.length;
    await new Promise((resolve) => setImmediate(resolve));
    expect(of('with-metrics')!.samples.length).toBe(count);
  });
});
