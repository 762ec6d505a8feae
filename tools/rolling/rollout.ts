import { withDeadline } from '../bench/wait-until';
import type { ClusterInstance, RollingCluster } from './rolling-cluster';

/** How one replaced instance ended. */
export interface InstanceShutdown {
  name: string;
  signal: 'SIGTERM' | 'SIGKILL';
  /** From the signal to the process's exit, in ms (Infinity: still running at the grace period's end). */
  durationMs: number;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  /** Tokens of the model calls its shutdown cut off, from its `runs drained` line (none after a SIGKILL). */
  tokensDiscarded?: { input: number; output: number };
}

/** The `tokensDiscarded` of the `runs drained` line in an instance's log, if it has one. */
export function drainedTokens(logs: string): InstanceShutdown['tokensDiscarded'] {
  const line = logs.split('\n').find((entry) => entry.includes('"runs drained"'));
  if (!line) return undefined;
  try {
    return (JSON.parse(line) as { tokensDiscarded?: InstanceShutdown['tokensDiscarded'] })
      .tokensDiscarded;
  } catch {
    return undefined;
  }
}

export interface RolloutOptions {
  /** What an old instance gets: `SIGTERM` (a rollout) or `SIGKILL` (a crash). */
  signal: InstanceShutdown['signal'];
  /**
   * Take each old instance out of the load balancer before signalling it, as the endpoint of a
   * pod being deleted leaves its Service at once (no preStop sleep here). Off: it leaves when its
   * readiness fails, after the signal. Default: false.
   */
  leaveRotationFirst?: boolean;
}

/** How long an old instance may take to leave the load balancer's rotation, in ms. */
const LEAVE_ROTATION_TIMEOUT_MS = 15_000;

/**
 * Replaces the cluster's old instances one at a time, the way a Deployment with maxSurge 1 and
 * maxUnavailable 0 does it: start a new one (`new-1…`), wait until it is routed, then signal an
 * old one. Resolves with how each old instance ended once all have exited; one still running
 * past the grace period (plus 5 s) is killed, as the kubelet would, and reported as such.
 */
export async function rollOut(
  cluster: RollingCluster,
  options: RolloutOptions,
): Promise<InstanceShutdown[]> {
  const { signal } = options;
  const old = cluster.old;
  const shutdowns: Promise<InstanceShutdown>[] = [];
  for (let i = 0; i < old.length; i++) {
    await cluster.launch(`new-${i + 1}`);
    const { name, service } = old[i];
    if (options.leaveRotationFirst) {
      await cluster.controller.terminate(name, LEAVE_ROTATION_TIMEOUT_MS);
      cluster.timeline.leftRotation(name);
      cluster.log(`${name} left the load balancer`);
    }
    const sentAt = service.signal(signal);
    cluster.timeline.signalled(name, signal, sentAt);
    cluster.log(`${signal} sent to ${name}`);
    shutdowns.push(
      service.exited.then((exit) => {
        cluster.controller.forget(name);
        cluster.timeline.exited(name, exit.atMs);
        cluster.log(
          `${name} exited after ${Math.round(exit.atMs - sentAt)} ms (code ${exit.code}, signal ${exit.signal})`,
        );
        const tokensDiscarded = drainedTokens(service.logs);
        return {
          name,
          signal,
          durationMs: exit.atMs - sentAt,
          exitCode: exit.code,
          exitSignal: exit.signal,
          ...(tokensDiscarded ? { tokensDiscarded } : {}),
        };
      }),
    );
  }
  // The kubelet's SIGKILL at the end of the grace period; a pass never needs it.
  return Promise.all(
    shutdowns.map((shutdown, i) =>
      withDeadline(shutdown, cluster.graceMs + 5_000, undefined).then(
        (s) => s ?? overdue(cluster, old[i], signal),
      ),
    ),
  );
}

/** An instance still running past its grace period: killed and reported. */
async function overdue(
  cluster: RollingCluster,
  instance: ClusterInstance,
  signal: InstanceShutdown['signal'],
): Promise<InstanceShutdown> {
  const exit = await instance.service.kill();
  cluster.timeline.exited(instance.name, exit.atMs);
  return {
    name: instance.name,
    signal,
    durationMs: Number.POSITIVE_INFINITY,
    exitCode: null,
    exitSignal: 'SIGKILL',
  };
}
