import type { ServiceBuild } from '../bench/service-build';
import type { ShutdownTimingInputs } from '../deploy/shutdown-timings';

/** The demo agent of the instances: tool rounds per turn and the time of each call, in ms. */
export interface DemoAgentSettings {
  steps: number;
  reasoningMs: number;
  toolMs: number;
}

/** How a `RollingCluster` is set up: its size, its instances' agent and shutdown timings, and their release. */
export interface RollingClusterOptions {
  /** Instances before and after the rollout. Default: 3. */
  instances?: number;
  /**
   * Default: 3, 400, 400: a turn of about 2.8 s, longer than the drain, so a shutdown finds
   * runs of every age.
   */
  demo?: DemoAgentSettings;
  /** The shutdown numbers, derived as the Helm chart derives them. Default: no preStop, 1 s drain, 2 s to save, 1 s slack. */
  timing?: ShutdownTimingInputs;
  /**
   * `LEASE_TTL_MS` of the instances: how soon a killed instance's threads resume elsewhere.
   * Default: 5000. It must outlast the slowest lease renewal: with seven processes on two
   * cores, renewals queued behind checkpoints have taken over 1.5 s here.
   */
  leaseTtlMs?: number;
  /** Progress lines, for a human watching. */
  log?: (line: string) => void;
  /** When set, each instance's log is written to `<logDir>/<instance>.log`. */
  logDir?: string;
  /**
   * How the instances signal each other: through Redis, or PostgreSQL alone (`SIGNALS=postgres`,
   * no Redis started). Default: 'redis'.
   */
  signals?: 'redis' | 'postgres';
  /**
   * The Redis the instances share: one server, or a local Redis Cluster of 3 masters with a
   * replica each (`REDIS_CLUSTER=true`, `REDIS_URL` a seed node). Default: `standalone`.
   */
  redis?: 'standalone' | 'cluster';
  /** The release the instances of `RollingCluster.start` run (`old-…`). Default: this checkout's build. */
  oldBuild?: ServiceBuild;
}
