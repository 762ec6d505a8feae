import { formatMetricsScrape } from './metrics-scrape-report';
import type { MetricsSample } from './metrics-scraper';

const sample = (atMs: number, inFlight: number, completed: number): MetricsSample => ({
  atMs,
  inFlight,
  runsTotal: { completed, interrupted: 1 },
  resumesTotal: { client: 2 },
  shutdownSeconds: { drain: 1.004 },
});

describe('formatMetricsScrape', () => {
  it('lists per instance the most runs in flight and the counters as last scraped', () => {
    const text = formatMetricsScrape([
      { name: 'old-1', samples: [sample(0, 9, 3), sample(250, 4, 7)], misses: 2 },
    ]);
    expect(text).toMatch(/old-1 +2 \/ 2 +9 +completed 7, interrupted 1 +client 2 +drain 1\.00$/m);
  });

  it('leaves out the counters still at zero', () => {
    const idle = {
      ...sample(0, 0, 0),
      runsTotal: { completed: 0 },
      shutdownSeconds: { close: 0.001 },
    };
    expect(formatMetricsScrape([{ name: 'new-1', samples: [idle], misses: 0 }])).toMatch(
      /new-1 +1 \/ 0 +0 +- +client 2 +-$/m,
    );
  });

  it('says why there is no sample when no instance answered', () => {
    expect(
      formatMetricsScrape([{ name: 'old-1', samples: [], misses: 12, lastMiss: 'HTTP 404' }]),
    ).toBe('metrics scrape: no samples from GET /metrics (HTTP 404)');
  });
});
