import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitUntil, withDeadline } from '../bench/wait-until';
import type { ClientSessionOptions } from './client-session';
import type { ShutdownTimingInputs, ShutdownTimings } from '../deploy/shutdown-timings';
import type { DemoAgentSettings, RollingCluster } from './rolling-cluster';
import { rollOut, type InstanceShutdown, type RolloutOptions } from './rollout';

/** Deadline of one client turn, in ms: past it the turn counts as not completed. */
export const TURN_DEADLINE_MS = 90_000;

/** How long the sessions may take to have one run each under way, in ms. */
const SESSIONS_START_TIMEOUT_MS = 60_000;

/** What both rolling proofs report of their cluster and its rollout. */
export interface RolloutFacts {
  sessions: number;
  instances: number;
  demo: DemoAgentSettings;
  timing: ShutdownTimingInputs & ShutdownTimings;
  /** The grace period counted from the signal (the preStop sleep excluded), in ms. */
  graceMs: number;
  shutdowns: InstanceShutdown[];
  /** Changes the endpoints controller made to nginx's upstreams. */
  lbChanges: number;
}

/** The cluster's part of a proof's report, once its rollout under `sessions` clients is done. */
export function rolloutFacts(
  cluster: RollingCluster,
  sessions: number,
  shutdowns: InstanceShutdown[],
): RolloutFacts {
  return {
    sessions,
    instances: cluster.instanceCount,
    demo: cluster.demo,
    timing: cluster.timing,
    graceMs: cluster.graceMs,
    shutdowns,
    lbChanges: cluster.controller.changes.length,
  };
}

/** A client's conversation: one turn at a time, each resolving true when it completed. */
export interface Conversation {
  turn(n: number): Promise<boolean>;
}

export interface RolloutUnderLoadOptions {
  /** How the old instances are replaced. */
  rollout: RolloutOptions;
  /** True once every session has a run under way: the rollout starts then. */
  underWay: () => boolean;
  /** A conversation stops at its first turn that did not complete: its next turns would only meet that failure's consequences. Default: false. */
  stopAtFailure?: boolean;
}

/**
 * The options of `count` client sessions through the cluster's load balancer: user `user-<i>`,
 * thread `<threadPrefix>-<i>`, each turn bounded by {@link TURN_DEADLINE_MS}.
 */
export function sessionOptions(
  cluster: RollingCluster,
  count: number,
  threadPrefix: string,
): ClientSessionOptions[] {
  return Array.from({ length: count }, (_, i) => ({
    baseUrl: cluster.nginx.url,
    token: cluster.token(`user-${i + 1}`),
    threadId: `${threadPrefix}-${i + 1}`,
    turnDeadlineMs: TURN_DEADLINE_MS,
  }));
}

/**
 * Keeps every conversation going, turn after turn, and once each has a run under way replaces
 * the cluster's old instances (see {@link rollOut}); then every conversation finishes one more
 * turn, entirely on the new instances. The cluster's `/metrics` scraper runs meanwhile, and its
 * timeline gets the clients' start and end. Resolves with how the old instances ended once the
 * conversations are done, or after two turn deadlines. On failure the conversations stop after
 * the turn they are in.
 */
export async function rollOutUnderLoad(
  cluster: RollingCluster,
  sessions: readonly Conversation[],
  options: RolloutUnderLoadOptions,
): Promise<InstanceShutdown[]> {
  let phase: 'rollout' | 'last turn' | 'stopped' = 'rollout';
  cluster.timeline.clientsStartedAtMs = performance.now();
  cluster.metrics.start();
  const drivers = sessions.map(async (session) => {
    // Spread the first requests over a second, so the sessions are at every phase of a turn.
    await sleep(Math.random() * 1_000);
    let turn = 1;
    while (phase === 'rollout') if (!(await session.turn(turn++)) && options.stopAtFailure) return;
    if (phase === 'last turn') await session.turn(turn);
  });
  cluster.log(`${sessions.length} client sessions started`);
  try {
    await waitUntil(
      async () => (options.underWay() ? true : undefined),
      'every session to start a run',
      SESSIONS_START_TIMEOUT_MS,
      50,
    );
    const shutdowns = await rollOut(cluster, options.rollout);
    phase = 'last turn';
    cluster.log('rollout done; every session finishes one more turn');
    await withDeadline(Promise.all(drivers), TURN_DEADLINE_MS * 2, undefined);
    return shutdowns;
  } finally {
    if (phase === 'rollout') phase = 'stopped';
    cluster.timeline.clientsEndedAtMs = performance.now();
    await cluster.metrics.stop();
  }
}
