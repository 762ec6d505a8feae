import { performance } from 'node:perf_hooks';
import { ClientSession, ClientTally } from './client-session';
import { auditHistories } from './history-audit';
import { RollingCluster, type RollingClusterOptions } from './rolling-cluster';
import { judge, type RollingReport } from './rolling-report';
import { rollOutUnderLoad, rolloutFacts, sessionOptions } from './rollout-under-load';

export interface RollingProofOptions extends RollingClusterOptions {
  /** How old instances are replaced: `SIGTERM` (a rollout) or `SIGKILL` (a crash). */
  mode: 'sigterm' | 'sigkill';
  /** Concurrent client sessions, each its own thread. Default: 100. */
  sessions?: number;
}

/**
 * The rolling-deployment proof of the client-retry path: `instances` copies of the built
 * service in resume mode `client` on one PostgreSQL and one Redis (see {@link RollingCluster}),
 * with `sessions` clients running multi-step demo agents through nginx and retrying as a real
 * client would. The instances are replaced one at a time (see {@link rollOutUnderLoad}) with
 * `mode`'s signal. When the rollout is done every client finishes one more turn, and every
 * thread is audited (see {@link auditHistories}).
 */
export async function runRollingProof(options: RollingProofOptions): Promise<RollingReport> {
  const sessionsWanted = options.sessions ?? 100;
  const began = performance.now();
  // The client's retry is what this proof tests: no instance continues a run on its own.
  const cluster = await RollingCluster.start(options, { RESUME_MODE: 'client' });
  try {
    const tally = new ClientTally();
    const sessions = sessionOptions(cluster, sessionsWanted, `rolling-${options.mode}`).map(
      (session) => new ClientSession(session, tally),
    );
    const shutdowns = await rollOutUnderLoad(cluster, sessions, {
      rollout: { signal: options.mode === 'sigterm' ? 'SIGTERM' : 'SIGKILL' },
      underWay: () => tally.runsStarted >= sessionsWanted,
    });

    const audit = await auditHistories(
      cluster.nginx.url,
      sessions,
      cluster.ledger,
      cluster.demo.steps,
    );
    return judge({
      mode: options.mode,
      ...rolloutFacts(cluster, sessionsWanted, shutdowns),
      tally,
      audit,
      durationMs: performance.now() - began,
      record: cluster.timeline.record(tally.moments, tally.gaps, cluster.metrics.series()),
    });
  } finally {
    await cluster.dispose();
  }
}
