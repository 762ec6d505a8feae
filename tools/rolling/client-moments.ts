import type { ClientGap, RunMoment } from './rollout-timeline';
import type { RunTrace } from './run-trace';

/**
 * The handover proof's side of the timeline, from what its clients' runs recorded: a `handed
 * over` moment at the first notice of each stall, a `resumed` one at the first event after it,
 * and the stall itself as the client's gap (see `RunTrace.handoverGaps`).
 */
export function handoverMoments(runs: readonly RunTrace[]): {
  moments: RunMoment[];
  gaps: ClientGap[];
} {
  const stalls = runs.flatMap((run) => run.handoverGaps());
  return {
    moments: stalls.flatMap((stall): RunMoment[] => [
      { kind: 'handed over', atMs: stall.firstNoticeAtMs },
      { kind: 'resumed', atMs: stall.toMs },
    ]),
    gaps: stalls.map((stall) => ({ fromMs: stall.fromMs, toMs: stall.toMs })),
  };
}
