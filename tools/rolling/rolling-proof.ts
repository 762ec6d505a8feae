import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitUntil, withDeadline } from '../bench/wait-until';
import { ClientSession, ClientTally } from './client-session';
import { auditHistories } from './history-audit';
import { RollingCluster, type RollingClusterOptions } from './rolling-cluster';
import { judge, type RollingReport } from './rolling-report';
import { rollOut } from './rollout';

export interface RollingProofOptions extends RollingClusterOptions {
  /** How old instances are replaced: `SIGTERM` (a rollout) or `SIGKILL` (a crash). */
  mode: 'sigterm' | 'sigkill';
  /** Concurrent client sessions, each its own thread. Default: 100. */
  sessions?: number;
}

/** Deadline of one client turn, in ms: past it the turn counts as failed. */
const TURN_DEADLINE_MS = 90_000;

/** How long the sessions may take to have one run each under way, in ms. */
const SESSIONS_START_TIMEOUT_MS = 60_000;

/**
 * The rolling-deployment proof of the client-retry path: `instances` copies of the built
 * service in resume mode `client` on one PostgreSQL and one Redis (see {@link RollingCluster}),
 * with `sessions` clients running multi-step demo agents through nginx and retrying as a real
 * client would. The instances are replaced one at a time (see {@link rollOut}) with `mode`'s
 * signal. When the rollout is done every client finishes one more turn, and every thread is
 * audited (see {@link auditHistories}).
 */
export async function runRollingProof(options: RollingProofOptions): Promise<RollingReport> {
  const sessionsWanted = options.sessions ?? 100;
  const began = performance.now();
  // The client's retry is what this proof tests: no instance continues a run on its own.
  const cluster = await RollingCluster.start(options, { RESUME_MODE: 'client' });
  try {
    const tally = new ClientTally();
    const sessions = Array.from(
      { length: sessionsWanted },
      (_, i) =>
        new ClientSession(
          { baseUrl: cluster.nginx.url, token: cluster.token(`user-${i + 1}`), threadId: `rolling-${options.mode}-${i + 1}`, turnDeadlineMs: TURN_DEADLINE_MS },
          tally,
        ),
    );
    let rolloutDone = false;
    const drivers = sessions.map(async (session) => {
      // Spread the first requests over a second, so the sessions are at every phase of a turn.
      await sleep(Math.random() * 1_000);
      let turn = 1;
      while (!rolloutDone) await session.turn(turn++);
      // One more turn, entirely on the new instances: the conversation goes on after the rollout.
      await session.turn(turn);
    });
    cluster.log(`${sessionsWanted} client sessions started`);
    await waitUntil(async () => (tally.runsStarted >= sessionsWanted ? true : undefined), 'every session to start a run', SESSIONS_START_TIMEOUT_MS, 50);

    const shutdowns = await rollOut(cluster, { signal: options.mode === 'sigterm' ? 'SIGTERM' : 'SIGKILL' });
    rolloutDone = true;
    cluster.log('rollout done; every session finishes one more turn');
    await withDeadline(Promise.all(drivers), TURN_DEADLINE_MS * 2, undefined);

    const audit = await auditHistories(cluster.nginx.url, sessions, cluster.ledger, cluster.demo.steps);
    return judge({
      mode: options.mode,
      sessions: sessionsWanted,
      instances: cluster.instanceCount,
      demo: cluster.demo,
      timing: cluster.timing,
      graceMs: cluster.graceMs,
      shutdowns,
      lbChanges: cluster.controller.changes.length,
      tally,
      audit,
      durationMs: performance.now() - began,
    });
  } finally {
    await cluster.dispose();
  }
}
