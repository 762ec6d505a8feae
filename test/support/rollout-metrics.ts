import type { MetricsSample } from '../../tools/rolling/metrics-scraper';
import type { RolloutRecord } from '../../tools/rolling/rollout-timeline';

/** What the rollout's scrapes of `GET /metrics` saw, per instance and summed. */
export interface RolloutMetrics {
  /** Per signalled instance: its samples taken between its signal and its exit (its drain, live). */
  duringShutdown: Array<{ name: string; samples: MetricsSample[] }>;
  /** `agent_runs_total` by outcome, summed over the instances' last samples. */
  outcomes: Record<string, number>;
  /** `agent_run_resumes_total` by mode, summed over the instances' last samples. */
  resumes: Record<string, number>;
}

function add(into: Record<string, number>, from: Record<string, number>): void {
  for (const [key, value] of Object.entries(from)) into[key] = (into[key] ?? 0) + value;
}

/** Reads the rollout's scrapes as an operator's Prometheus would have them. */
export function rolloutMetrics(record: RolloutRecord): RolloutMetrics {
  const outcomes: Record<string, number> = {};
  const resumes: Record<string, number> = {};
  for (const instance of record.metrics) {
    const last = instance.samples.at(-1);
    if (!last) continue;
    add(outcomes, last.runsTotal);
    add(resumes, last.resumesTotal);
  }
  const duringShutdown = record.instances
    .filter((life) => life.signal)
    .map((life) => {
      const samples = record.metrics.find((m) => m.name === life.name)?.samples ?? [];
      const from = life.signal!.atMs;
      const to = life.exitedAtMs ?? Number.POSITIVE_INFINITY;
      return { name: life.name, samples: samples.filter((s) => s.atMs >= from && s.atMs <= to) };
    });
  return { duringShutdown, outcomes, resumes };
}
