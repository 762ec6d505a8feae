import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { handoverMoments } from './client-moments';
import { HandoverSession } from './handover-session';
import { judgeHandover, type HandoverReport } from './handover-report';
import { summarizeRuns } from './handover-summary';
import { auditHistories } from './history-audit';
import { RollingCluster, type RollingClusterOptions } from './rolling-cluster';
import { rollOutUnderLoad, rolloutFacts, sessionOptions } from './rollout-under-load';
import { auditRunLogs } from './run-log-audit';

export interface HandoverProofOptions extends RollingClusterOptions {
  /** Concurrent client sessions, each its own thread. Default: 100. */
  sessions?: number;
}

/**
 * The rolling-deployment proof of the handover path: the instances run in resume mode `auto`,
 * the clients are the package's `ResumableHttpAgent` (see {@link HandoverSession}), and the old
 * instances are replaced one at a time with SIGTERM, each taken out of the load balancer first
 * as a deleted pod's endpoint is. A run its instance cannot finish within the drain is handed
 * over: its client gets a `handover` notice, joins the run through nginx, and another instance
 * continues it under the same run id. Afterwards every run's full log is compared with what its
 * client received (see {@link auditRunLogs}), and every thread is audited (see {@link auditHistories}).
 */
export async function runHandoverProof(options: HandoverProofOptions): Promise<HandoverReport> {
  const sessionsWanted = options.sessions ?? 100;
  const began = performance.now();
  const cluster = await RollingCluster.start(options, { RESUME_MODE: 'auto' });
  try {
    const sessions = sessionOptions(cluster, sessionsWanted, 'rolling-handover').map(
      (session) => new HandoverSession(session),
    );
    const streaming = (session: HandoverSession) =>
      session.runs.some((run) =>
        run.connections.some((connection) => connection.frames.length > 0),
      );
    const shutdowns = await rollOutUnderLoad(cluster, sessions, {
      rollout: { signal: 'SIGTERM', leaveRotationFirst: true },
      underWay: () => sessions.every(streaming),
      stopAtFailure: true,
    });

    const runs = sessions.flatMap((session) => session.runs);
    // What each client saw, request by request, beside the instances' logs.
    if (options.logDir)
      writeFileSync(
        join(options.logDir, 'client-runs.jsonl'),
        runs.map((run) => JSON.stringify(run)).join('\n'),
      );
    const logs = await auditRunLogs(cluster.nginx.url, sessions, (run, log) => {
      if (options.logDir)
        appendFileSync(
          join(options.logDir, 'differing-run-logs.jsonl'),
          `${JSON.stringify({ threadId: run.threadId, runId: run.runId, log })}\n`,
        );
    });
    const audit = await auditHistories(
      cluster.nginx.url,
      sessions,
      cluster.ledger,
      cluster.demo.steps,
    );
    const { moments, gaps } = handoverMoments(runs);
    return judgeHandover({
      ...rolloutFacts(cluster, sessionsWanted, shutdowns),
      runs: summarizeRuns(runs, cluster.continuations),
      logs,
      audit,
      durationMs: performance.now() - began,
      record: cluster.timeline.record(moments, gaps, cluster.metrics.series()),
    });
  } finally {
    await cluster.dispose();
  }
}
