import { performance } from 'node:perf_hooks';
import type { InstanceMetrics } from './metrics-scraper';

/** When one instance went through each moment of its life, `performance.now()` in ms. */
export interface InstanceLife {
  name: string;
  /** Its process was spawned. */
  launchedAtMs: number;
  /** nginx first routed requests to it: the end of `starting`. */
  routedAtMs?: number;
  /** Taken out of the load balancer before its signal (the handover proof does this). */
  leftRotationAtMs?: number;
  signal?: { kind: 'SIGTERM' | 'SIGKILL'; atMs: number };
  exitedAtMs?: number;
}

/** Something a client's run went through, as the client saw it. */
export type RunMomentKind = 'interrupted' | 'cut off' | 'handed over' | 'resumed';

/** One run moment: `interrupted` (`RUN_INTERRUPTED`), `cut off` (stream ended without a terminal event), `handed over` (a `handover` notice), `resumed` (events again after one of those). */
export interface RunMoment {
  kind: RunMomentKind;
  atMs: number;
}

/** A client without events: from losing its stream to the next event of its run, `performance.now()` in ms. */
export interface ClientGap {
  fromMs: number;
  toMs: number;
}

/** Everything a rollout's picture needs, in `performance.now()` ms; see `timelineData` for the chart's form. */
export interface RolloutRecord {
  /** When the clients started: 0 s on the chart. */
  originMs: number;
  /** When the last client turn ended. */
  endMs: number;
  instances: InstanceLife[];
  moments: RunMoment[];
  gaps: ClientGap[];
  /** What `GET /metrics` of each instance said during the rollout (see `MetricsScraper`); empty without the endpoint. */
  metrics: InstanceMetrics[];
}

/**
 * The instances' side of a rollout's record: each instance's launch, routing, signal and exit,
 * as the cluster and the rollout see them happen. The clients' side (moments, gaps) comes
 * from their tallies and traces when the proof ends; {@link record} puts both together.
 */
export class RolloutTimeline {
  readonly instances: InstanceLife[] = [];
  /** When the client sessions started; the record's origin. */
  clientsStartedAtMs?: number;
  /** When the last client turn ended. */
  clientsEndedAtMs?: number;

  launched(name: string, atMs = performance.now()): void {
    this.instances.push({ name, launchedAtMs: atMs });
  }

  routed(name: string, atMs = performance.now()): void {
    this.life(name).routedAtMs ??= atMs;
  }

  leftRotation(name: string, atMs = performance.now()): void {
    this.life(name).leftRotationAtMs = atMs;
  }

  signalled(name: string, kind: 'SIGTERM' | 'SIGKILL', atMs: number): void {
    this.life(name).signal = { kind, atMs };
  }

  exited(name: string, atMs: number): void {
    this.life(name).exitedAtMs = atMs;
  }

  /** The whole record, with the clients' moments and gaps and the scraped metrics. */
  record(moments: RunMoment[], gaps: ClientGap[], metrics: InstanceMetrics[]): RolloutRecord {
    const originMs = this.clientsStartedAtMs ?? this.instances[0]?.launchedAtMs ?? 0;
    const endMs = this.clientsEndedAtMs ?? performance.now();
    return {
      originMs,
      endMs,
      instances: this.instances.map((life) => ({ ...life })),
      moments,
      gaps,
      metrics,
    };
  }

  private life(name: string): InstanceLife {
    const life = this.instances.find((instance) => instance.name === name);
    if (!life) throw new Error(`no instance named ${name} was launched: call launched() first`);
    return life;
  }
}
