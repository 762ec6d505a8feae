import { performance } from 'node:perf_hooks';
import { THIS_BUILD } from '../bench/service-build';
import { ClientSession, ClientTally } from './client-session';
import { auditHistories } from './history-audit';
import { PREVIOUS_RELEASE } from './previous-release';
import { ensureReleaseBuild } from './release-build';
import { readReleaseResumes } from './release-resumes';
import { RollingCluster, type RollingClusterOptions } from './rolling-cluster';
import { judge } from './rolling-report';
import { rollOutUnderLoad, rolloutFacts, sessionOptions } from './rollout-under-load';
import { readMigrations } from './schema-migrations';
import { judgeUpgrade, type UpgradeReport } from './upgrade-report';

export interface UpgradeProofOptions extends Omit<RollingClusterOptions, 'oldBuild'> {
  /** Concurrent client sessions, each its own thread. Default: 100. */
  sessions?: number;
}

const THREAD_PREFIX = 'rolling-upgrade';

/**
 * The rolling-upgrade proof: the SIGTERM rollout of `runRollingProof`, but the instances
 * it starts run the previous release ({@link PREVIOUS_RELEASE}, built once and cached, see
 * {@link ensureReleaseBuild}) and the ones that replace them this checkout's build, whose
 * migrations run at its first instance's boot while the old instances serve. Clients retry an
 * interrupted run (resume mode `client`), so a run an old instance stopped is resumed by
 * whichever instance nginx sends the retry to; the store tells which (see {@link readReleaseResumes}).
 */
export async function runUpgradeProof(options: UpgradeProofOptions): Promise<UpgradeReport> {
  const sessionsWanted = options.sessions ?? 100;
  // Built before the clock starts: a cold build is minutes of npm, not part of the rollout.
  const from = await ensureReleaseBuild(PREVIOUS_RELEASE, options.log);
  const began = performance.now();
  const cluster = await RollingCluster.start(
    { ...options, oldBuild: from },
    { RESUME_MODE: 'client' },
  );
  try {
    const { databaseUrl } = cluster.backends;
    const migrationsBefore = await readMigrations(databaseUrl);
    const tally = new ClientTally();
    const sessions = sessionOptions(cluster, sessionsWanted, THREAD_PREFIX).map(
      (session) => new ClientSession(session, tally),
    );
    const shutdowns = await rollOutUnderLoad(cluster, sessions, {
      rollout: { signal: 'SIGTERM' },
      underWay: () => tally.runsStarted >= sessionsWanted,
    });

    const audit = await auditHistories(
      cluster.nginx.url,
      sessions,
      cluster.ledger,
      cluster.demo.steps,
    );
    const rolling = judge({
      mode: 'sigterm',
      ...rolloutFacts(cluster, sessionsWanted, shutdowns),
      tally,
      audit,
      durationMs: performance.now() - began,
      record: cluster.timeline.record(tally.moments, tally.gaps, cluster.metrics.series()),
    });
    return judgeUpgrade(rolling, {
      from,
      to: THIS_BUILD,
      instances: cluster.instances.map(({ name, build }) => ({ name, build })),
      migrationsBefore,
      migrationsAfter: await readMigrations(databaseUrl),
      resumes: await readReleaseResumes(
        databaseUrl,
        THREAD_PREFIX,
        cluster.instances,
        from.release,
      ),
    });
  } finally {
    await cluster.dispose();
  }
}
