import type { RolloutRecord, RunMomentKind } from './rollout-timeline';

/** A stretch of an instance's life: `starting` (spawned, not yet routed), `serving`, `draining` (SIGTERM to exit). */
export type InstancePhase = 'starting' | 'serving' | 'draining';

/** A moment drawn across an instance's lane. */
export type LaneMark = 'SIGTERM' | 'SIGKILL' | 'exited';

/** A rollout record in the chart's terms: seconds since the clients started, runs counted per bin. */
export interface TimelineRows {
  /** The x axis, in s. */
  domain: [number, number];
  /** Lane names, top to bottom, in launch order. */
  lanes: string[];
  phases: { lane: string; phase: InstancePhase; fromS: number; toS: number }[];
  marks: { lane: string; mark: LaneMark; atS: number }[];
  /** Runs in flight per instance, from `/metrics`; empty without the endpoint. */
  inFlight: { lane: string; atS: number; runs: number }[];
  /** Client run moments counted per bin of `binS`. */
  runBins: { kind: RunMomentKind; fromS: number; toS: number; count: number }[];
  binS: number;
  /** Clients waiting for events (in a gap), a step function: the count from each `atS` on. */
  waiting: { atS: number; clients: number }[];
}

/** Seconds shown before the clients start, so the old instances are seen serving already. */
const LEAD_S = 1;

/**
 * The chart's rows of a rollout record: each instance's phases and marks clipped to the axis,
 * the run moments counted per `binS` (default 0.5 s), the number of clients in a gap over time,
 * and the runs in flight per instance when `/metrics` was scraped.
 */
export function timelineRows(record: RolloutRecord, binS = 0.5): TimelineRows {
  const s = (ms: number) => (ms - record.originMs) / 1000;
  const domain: [number, number] = [-LEAD_S, Math.ceil(s(record.endMs)) + 0.5];
  const rows: TimelineRows = {
    domain,
    lanes: [],
    phases: [],
    marks: [],
    inFlight: [],
    runBins: [],
    binS,
    waiting: [],
  };
  for (const life of record.instances) {
    const lane = life.name;
    rows.lanes.push(lane);
    const end = life.exitedAtMs ?? record.endMs;
    // Leaving the load balancer comes a few ms before the signal: too close to draw apart, so serving ends there.
    const servingEnd = life.leftRotationAtMs ?? life.signal?.atMs ?? end;
    const phase = (name: InstancePhase, fromMs: number, toMs: number) => {
      const fromS = Math.max(domain[0], s(fromMs));
      if (s(toMs) > fromS)
        rows.phases.push({ lane, phase: name, fromS, toS: Math.min(domain[1], s(toMs)) });
    };
    phase('starting', life.launchedAtMs, life.routedAtMs ?? servingEnd);
    if (life.routedAtMs !== undefined) phase('serving', life.routedAtMs, servingEnd);
    if (life.signal?.kind === 'SIGTERM') phase('draining', life.signal.atMs, end);
    const mark = (name: LaneMark, atMs: number | undefined) => {
      if (atMs !== undefined && s(atMs) >= domain[0])
        rows.marks.push({ lane, mark: name, atS: s(atMs) });
    };
    mark(life.signal?.kind ?? 'SIGTERM', life.signal?.atMs);
    mark('exited', life.exitedAtMs);
  }
  // Only instances with a lane: a series of an instance the record does not know has nowhere to go.
  for (const instance of record.metrics.filter((series) => rows.lanes.includes(series.name))) {
    for (const sample of instance.samples) {
      if (sample.inFlight !== undefined && s(sample.atMs) >= domain[0])
        rows.inFlight.push({ lane: instance.name, atS: s(sample.atMs), runs: sample.inFlight });
    }
  }
  const bins = new Map<string, TimelineRows['runBins'][number]>();
  for (const moment of record.moments) {
    const fromS = domain[0] + Math.floor((s(moment.atMs) - domain[0]) / binS) * binS;
    const key = `${moment.kind}@${fromS}`;
    const bin = bins.get(key) ?? { kind: moment.kind, fromS, toS: fromS + binS, count: 0 };
    bin.count++;
    bins.set(key, bin);
  }
  rows.runBins = [...bins.values()].sort((a, b) => a.fromS - b.fromS);
  rows.waiting = waitingSteps(
    record.gaps.map((gap) => [s(gap.fromMs), s(gap.toMs)]),
    domain,
  );
  return rows;
}

/** How many of `gaps` ([from, to] in s) are open from each change on, starting and ending at 0. */
function waitingSteps(gaps: [number, number][], domain: [number, number]): TimelineRows['waiting'] {
  const changes = gaps.flatMap(([from, to]): [number, number][] => [
    [from, 1],
    [to, -1],
  ]);
  changes.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const steps = [{ atS: domain[0], clients: 0 }];
  let open = 0;
  for (const [atS, change] of changes) {
    open += change;
    if (steps[steps.length - 1].atS === atS) steps[steps.length - 1].clients = open;
    else steps.push({ atS, clients: open });
  }
  steps.push({ atS: domain[1], clients: open });
  return steps;
}
