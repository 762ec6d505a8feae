import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { parsePrometheusText, total } from '../rolling/prometheus-text';
import type { SoakInstance } from './soak-instance';
import type { SoakSample } from './soak-sample';

/** How long one read (`/metrics`, `/proc`, one query) may take, in ms. */
const READ_TIMEOUT_MS = 3_000;

/** The clients' counts so far, over all of them. */
export type TurnCounts = () => { completed: number; cancelled: number };

/** `VmRSS` of `/proc/<pid>/status`, in bytes; undefined when the process is gone. */
async function residentBytes(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kb = status && /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : undefined;
}

/**
 * Samples the instance every `everyMs` until {@link stop}: RSS from `/proc/<pid>/status` (the
 * kernel's count, not the process's own), heap used, active handles and event-loop lag p99 from
 * the service's own `GET /metrics` (prom-client's default metrics), the database's sessions from
 * `pg_stat_activity` (this sampler's own session left out), the runs the store has completed,
 * the machine's load, and the clients' turn counts. Memory, handles and lag are read only while
 * a life serves (not during its drain); a read that fails leaves its field out of that sample.
 */
export class SoakSampler {
  readonly samples: SoakSample[] = [];
  private running = true;
  private loop?: Promise<void>;

  private constructor(
    private readonly instance: SoakInstance,
    private readonly db: Client,
    private readonly database: string,
    private readonly threadPrefix: string,
    private readonly turns: TurnCounts,
    private readonly startMs: number,
  ) {}

  /**
   * Connects to `databaseUrl` and starts sampling at once; times are ms after `startMs`
   * (`performance.now()`); completed runs are counted on the threads named `<threadPrefix>-…`.
   */
  static async start(
    instance: SoakInstance,
    databaseUrl: string,
    threadPrefix: string,
    turns: TurnCounts,
    startMs: number,
    everyMs: number,
  ): Promise<SoakSampler> {
    const db = new Client({
      connectionString: databaseUrl,
      statement_timeout: READ_TIMEOUT_MS,
      connectionTimeoutMillis: READ_TIMEOUT_MS,
    });
    await db.connect();
    // A failed connection must not end the process; the sample just loses that field.
    db.on('error', () => undefined);
    const sampler = new SoakSampler(
      instance,
      db,
      new URL(databaseUrl).pathname.slice(1),
      threadPrefix,
      turns,
      startMs,
    );
    sampler.loop = sampler.run(everyMs);
    return sampler;
  }

  /** Ends the sampling after the sample under way, and closes the database session. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.db.end().catch(() => undefined);
  }

  private async run(everyMs: number): Promise<void> {
    for (let next = performance.now(); this.running;) {
      await this.sample().catch(() => undefined);
      next += everyMs;
      // Small steps, so that stop() does not wait a whole interval.
      while (this.running && performance.now() < next)
        await sleep(Math.max(0, Math.min(250, next - performance.now())));
    }
  }

  private async sample(): Promise<void> {
    const life = this.instance.life;
    const pid = this.instance.pid;
    const atMs = performance.now() - this.startMs;
    const [rssBytes, metrics, dbConnections, runsCompleted] = await Promise.all([
      pid === undefined ? undefined : residentBytes(pid),
      pid === undefined ? {} : this.metrics(),
      this.db
        .query<{ n: string }>(
          'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [this.database],
        )
        .then((result) => Number(result.rows[0].n))
        .catch(() => undefined),
      this.db
        .query<{ n: string }>(
          "SELECT count(*) AS n FROM agent_runs WHERE status = 'completed' AND thread_id LIKE $1",
          [`${this.threadPrefix}-%`],
        )
        .then((result) => Number(result.rows[0].n))
        .catch(() => undefined),
    ]);
    // A restart during the reads: the values may mix two lives, keep only what is not per life.
    const sameLife = this.instance.life === life && this.instance.pid === pid;
    const { completed, cancelled } = this.turns();
    this.samples.push({
      atMs,
      life,
      ...(sameLife ? { rssBytes, ...metrics } : {}),
      dbConnections,
      runsCompleted,
      load1: loadavg()[0],
      turnsCompleted: completed,
      turnsCancelled: cancelled,
    });
  }

  private async metrics(): Promise<
    Pick<SoakSample, 'heapUsedBytes' | 'handles' | 'lagP99Seconds'>
  > {
    const text = await fetch(`${this.instance.baseUrl}/metrics`, {
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    })
      .then((response) => (response.ok ? response.text() : undefined))
      .catch(() => undefined);
    if (!text) return {};
    const samples = parsePrometheusText(text);
    return {
      heapUsedBytes: total(samples, 'nodejs_heap_size_used_bytes'),
      handles: total(samples, 'nodejs_active_handles_total'),
      lagP99Seconds: total(samples, 'nodejs_eventloop_lag_p99_seconds'),
    };
  }
}
