import { performance } from 'node:perf_hooks';
import { parsePrometheusText, sumBy, total } from './prometheus-text';
import { RoundLoop } from './round-loop';

/** One instance to scrape, by the name the report uses. */
export interface ScrapeTarget {
  name: string;
  /** `http://host:port`; `/metrics` is appended. */
  baseUrl: string;
}

/** What one scrape of one instance read (contract section 2, "Metrics"). */
export interface MetricsSample {
  /** `performance.now()` when the answer was read. */
  atMs: number;
  /** `agent_runs_in_flight`; undefined when the text does not have it. */
  inFlight?: number;
  /** `agent_runs_total` by `outcome`. */
  runsTotal: Record<string, number>;
  /** `agent_run_resumes_total` by `mode`. */
  resumesTotal: Record<string, number>;
  /** `agent_shutdown_duration_seconds` by `phase`: the histogram's sum, in seconds. */
  shutdownSeconds: Record<string, number>;
}

/** One instance's samples, and the scrapes that got none. */
export interface InstanceMetrics {
  name: string;
  samples: MetricsSample[];
  /** Scrapes without a sample: no endpoint (404), refused connection, timeout, unreadable text. */
  misses: number;
  /** Why the last scrape without a sample got none, e.g. `HTTP 404`. */
  lastMiss?: string;
}

export interface MetricsScraperOptions {
  /** Time between the starts of two scrape rounds, in ms. Default: 250. */
  intervalMs?: number;
  /** How long one scrape may take before it counts as a miss, in ms. Default: 1000. */
  timeoutMs?: number;
}

/** The sample `text` holds, read at `atMs`. */
function sampleOf(text: string, atMs: number): MetricsSample {
  const samples = parsePrometheusText(text);
  return {
    atMs,
    inFlight: total(samples, 'agent_runs_in_flight'),
    runsTotal: sumBy(samples, 'agent_runs_total', 'outcome'),
    resumesTotal: sumBy(samples, 'agent_run_resumes_total', 'mode'),
    shutdownSeconds: sumBy(samples, 'agent_shutdown_duration_seconds_sum', 'phase'),
  };
}

/** Why a scrape failed, in a few words: `fetch` hides the socket's error (`ECONNREFUSED`, …) in its `cause`. */
function missReason(error: unknown): string {
  const { message, cause } = error as {
    message?: string;
    cause?: { code?: string; message?: string };
  };
  return cause?.code ?? cause?.message ?? message ?? String(error);
}

/**
 * Scrapes `GET /metrics` of every live instance `targets()` names, every `intervalMs`, and keeps
 * a time series per instance of the runs in flight and the run, resume and shutdown counters.
 * An instance without the endpoint (404), gone (connection refused) or too slow is a scrape
 * without a sample, counted, never an error: the proofs run against services with or without
 * metrics. `stop()` waits for the round in flight.
 *
 * @example
 * const scraper = new MetricsScraper(() => live.map((i) => ({ name: i.name, baseUrl: i.service.baseUrl })));
 * scraper.start(); … await scraper.stop(); scraper.series();
 */
export class MetricsScraper {
  private readonly instances = new Map<string, InstanceMetrics>();
  private readonly timeoutMs: number;
  private readonly rounds: RoundLoop;

  constructor(
    private readonly targets: () => readonly ScrapeTarget[],
    options: MetricsScraperOptions = {},
  ) {
    this.rounds = new RoundLoop(
      () => Promise.all(this.targets().map((target) => this.scrape(target))),
      options.intervalMs ?? 250,
    );
    this.timeoutMs = options.timeoutMs ?? 1_000;
  }

  /** Starts scraping; a second call while running does nothing. */
  start(): void {
    this.rounds.start();
  }

  /** Stops scraping and waits for the round in flight (at most one scrape timeout). */
  async stop(): Promise<void> {
    await this.rounds.stop();
  }

  /** Every instance scraped at least once, in the order first seen. */
  series(): InstanceMetrics[] {
    return [...this.instances.values()];
  }

  /** Scrapes `target` once and records the sample or the miss. */
  async scrape(target: ScrapeTarget): Promise<void> {
    const record = this.instances.get(target.name) ?? { name: target.name, samples: [], misses: 0 };
    this.instances.set(target.name, record);
    try {
      const response = await fetch(`${target.baseUrl}/metrics`, {
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      record.samples.push(sampleOf(text, performance.now()));
    } catch (error) {
      record.misses++;
      record.lastMiss = missReason(error);
    }
  }
}
