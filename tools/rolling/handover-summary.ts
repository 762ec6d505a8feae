import type { ReconnectKind } from 'nest-agent-graceful-shutdown/client';
import type { RunContinuations } from './run-continuations';
import type { RunTrace } from './run-trace';
import { spread, type Spread } from './spread';

/** What the clients of a handover rollout saw, over all their runs. */
export interface HandoverRunSummary {
  runs: number;
  completed: number;
  /** Completed runs for which the client sent no request again (resends + `RUN_INTERRUPTED` retries = 0). */
  completedWithoutRetry: number;
  /** Runs that did not complete, described. Must be empty. */
  failures: string[];
  /**
   * Completed runs whose only client retries were resends of a POST the load balancer had sent
   * to an instance out of its upstreams, before the run started (see `RunTrace.misroutedPosts`).
   */
  retriedAfterMisroute: number;
  /** Such POSTs, over all runs. */
  misroutedPosts: number;
  /** Runs for which the client had to send a request again for any other reason, described. Must be empty. */
  retried: string[];
  /** The agents' stats, summed over the runs. */
  handovers: number;
  joins: number;
  resends: number;
  interruptedRetries: number;
  duplicatesDropped: number;
  /** The reconnects the agents announced (`onReconnect`), by kind. */
  reconnects: Record<ReconnectKind, number>;
  /** Runs with at least one `handover` notice. */
  runsHandedOver: number;
  /** Runs an instance logged it continued (`continuing interrupted run`): their events came from more than one instance. */
  runsContinued: number;
  /** Of those, the runs whose client followed a handover and got the run's end: a joined stream outlived its pod. */
  runsAcrossInstances: number;
  /** The stream gap at each handover the clients followed (see `RunTrace.handoverGaps`). */
  gap: Spread;
  /** Of each gap, the part after the notice. */
  gapAfterNotice: Spread;
  /** How long turns took: with no handover, and with at least one. */
  turnLatency: { plain: Spread; handedOver: Spread };
}

/** Condenses the clients' run traces, with the instances' continuation lines, into the report's numbers. */
export function summarizeRuns(
  runs: readonly RunTrace[],
  continuations: RunContinuations,
): HandoverRunSummary {
  const sum = (pick: (run: RunTrace) => number) =>
    runs.reduce((total, run) => total + pick(run), 0);
  const reconnects: Record<ReconnectKind, number> = {
    handover: 0,
    dropped: 0,
    interrupted: 0,
    resend: 0,
  };
  for (const info of runs.flatMap((run) => run.reconnects)) reconnects[info.kind]++;
  const gaps = runs.flatMap((run) => run.handoverGaps());
  const continued = runs.filter((run) => continuations.of(run.threadId, run.runId).length > 0);
  const handedOver = (run: RunTrace) => run.stats.handovers > 0;
  // A misrouted POST is resent (never retried as RUN_INTERRUPTED): at most `resends` of them count.
  const misrouted = (run: RunTrace) => Math.min(run.misroutedPosts(), run.stats.resends);
  const name = (run: RunTrace) => `${run.threadId}/${run.runId}`;
  return {
    runs: runs.length,
    completed: runs.filter((run) => run.completed).length,
    completedWithoutRetry: runs.filter((run) => run.completed && run.clientRetries === 0).length,
    failures: runs
      .filter((run) => !run.completed)
      .map((run) => `${name(run)}: ${run.failure ?? 'not completed'}`),
    retriedAfterMisroute: runs.filter(
      (run) => run.completed && run.clientRetries > 0 && run.clientRetries === misrouted(run),
    ).length,
    misroutedPosts: sum(misrouted),
    retried: runs
      .filter((run) => run.clientRetries > misrouted(run))
      .map(
        (run) =>
          `${name(run)}: ${run.stats.resends} resends (${misrouted(run)} misrouted), ${run.stats.interruptedRetries} RUN_INTERRUPTED retries`,
      ),
    handovers: sum((run) => run.stats.handovers),
    joins: sum((run) => run.stats.joins),
    resends: sum((run) => run.stats.resends),
    interruptedRetries: sum((run) => run.stats.interruptedRetries),
    duplicatesDropped: sum((run) => run.stats.duplicatesDropped),
    reconnects,
    runsHandedOver: runs.filter(handedOver).length,
    runsContinued: continued.length,
    runsAcrossInstances: continued.filter((run) => handedOver(run) && run.completed).length,
    gap: spread(gaps.map((gap) => gap.gapMs)),
    gapAfterNotice: spread(gaps.map((gap) => gap.afterNoticeMs)),
    turnLatency: {
      plain: spread(
        runs.filter((run) => run.completed && !handedOver(run)).map((run) => run.durationMs),
      ),
      handedOver: spread(
        runs.filter((run) => run.completed && handedOver(run)).map((run) => run.durationMs),
      ),
    },
  };
}
