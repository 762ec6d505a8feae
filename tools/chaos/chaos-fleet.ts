import { setTimeout as sleep } from 'node:timers/promises';
import { withDeadline } from '../bench/wait-until';
import type { ClusterInstance, RollingCluster } from '../rolling/rolling-cluster';
import type { ScheduledAction } from './chaos-schedule';

/**
 * The fleet under the chaos schedule: a {@link RollingCluster} whose routed instances sit in
 * slots (three by default), and the faults done to them and to the backends they share. An
 * instance stopped or killed is replaced at once in its slot, as a Deployment would replace its
 * pod, by a warm spare started beforehand (a new spare then starts): on a busy machine an
 * instance takes many seconds to boot, and the fleet must not shrink for that long. A paused
 * instance keeps its slot. Whatever an instance did wrong on its way out (an exit code other
 * than 0 after SIGTERM, an exit past the grace period) is kept in `problems`.
 */
export class ChaosFleet {
  /** What went wrong with the instances, for the audit. Empty when all went well. */
  readonly problems: string[] = [];
  private readonly paused = new Set<ClusterInstance>();
  private readonly pending: Promise<void>[] = [];
  private spare?: Promise<ClusterInstance | undefined>;
  private started = 0;

  private constructor(
    private readonly cluster: RollingCluster,
    private readonly slots: (ClusterInstance | undefined)[],
  ) {}

  /** Starts `size` instances at once (`old-1…`), routes them, and starts the first spare. */
  static async start(cluster: RollingCluster, size = 3): Promise<ChaosFleet> {
    const slots = await Promise.all(
      Array.from({ length: size }, (_, i) => cluster.launch(`old-${i + 1}`)),
    );
    const fleet = new ChaosFleet(cluster, slots);
    fleet.nextSpare();
    await fleet.spare;
    return fleet;
  }

  /** Instances started so far, the first ones included. */
  get instancesStarted(): number {
    return this.cluster.instances.length;
  }

  /** Does one fault of the schedule; resolves, when it is over, with what was done (the executed schedule's detail). */
  async apply(entry: ScheduledAction): Promise<string> {
    switch (entry.action) {
      case 'sigterm':
      case 'sigkill':
        return this.stop(entry.target, entry.action === 'sigterm' ? 'SIGTERM' : 'SIGKILL');
      case 'pause':
        return this.pause(entry.target, entry.durationMs ?? 0);
      case 'pg-restart': {
        const mode = entry.target.endsWith('immediate') ? 'immediate' : 'fast';
        const began = Date.now();
        await this.cluster.backends.postgres.restart(mode);
        return `pg_ctl stop -m ${mode}, started again after ${Date.now() - began} ms`;
      }
      case 'redis-restart': {
        const began = Date.now();
        await this.cluster.backends.redis.stop();
        await sleep(entry.durationMs ?? 0);
        await this.cluster.backends.redis.startAgain();
        return `stopped, started again after ${Date.now() - began} ms (empty)`;
      }
      default:
        throw new Error(`${entry.action} is not a fault of the fleet`);
    }
  }

  /** Resolves once every replacement is routed and every stopped instance has exited. */
  async settle(): Promise<void> {
    await Promise.all(this.pending);
  }

  /**
   * Before the cluster is disposed: continues any paused instance (a run that failed midway must
   * not leave one stopped) and waits for a spare still starting, so that disposing stops it too.
   */
  async close(): Promise<void> {
    for (const instance of this.paused) instance.service.signal('SIGCONT');
    this.paused.clear();
    await this.spare;
  }

  /** The live, running instance in `target`'s slot, or in the next slot that has one. */
  private pick(target: string): { slot: number; instance: ClusterInstance } | undefined {
    const wanted = Number(target.replace('slot-', '')) - 1;
    for (let i = 0; i < this.slots.length; i++) {
      const slot = (wanted + i) % this.slots.length;
      const instance = this.slots[slot];
      if (instance?.service.alive && !this.paused.has(instance)) return { slot, instance };
    }
    return undefined;
  }

  private stop(target: string, signal: 'SIGTERM' | 'SIGKILL'): string {
    const picked = this.pick(target);
    if (!picked) return 'skipped: no running instance';
    const { slot, instance } = picked;
    this.slots[slot] = undefined;
    instance.service.signal(signal);
    this.pending.push(this.awaitExit(instance, signal));
    const spare = this.spare;
    this.nextSpare();
    this.pending.push(this.replace(slot, spare));
    return `${instance.name} in slot-${slot + 1}; the spare replaces it`;
  }

  /** Starts the next spare in the background; a failure to start is a problem of the fleet. */
  private nextSpare(): void {
    const name = `new-${++this.started}`;
    this.spare = this.cluster.spawn(name).catch((error: unknown) => {
      this.problems.push(`${name} did not start: ${String(error)}`);
      return undefined;
    });
  }

  /** Routes the spare into `slot`. */
  private async replace(
    slot: number,
    spare: Promise<ClusterInstance | undefined> | undefined,
  ): Promise<void> {
    const instance = await spare;
    if (!instance) return;
    await this.cluster.route(instance).then(
      () => void (this.slots[slot] = instance),
      (error: unknown) =>
        void this.problems.push(`${instance.name} was not routed: ${String(error)}`),
    );
  }

  private async awaitExit(instance: ClusterInstance, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const exit = await withDeadline(
      instance.service.exited,
      this.cluster.graceMs + 5_000,
      undefined,
    );
    this.cluster.controller.forget(instance.name);
    if (!exit) {
      await instance.service.kill();
      this.problems.push(
        `${instance.name} did not exit within ${this.cluster.graceMs} ms of its ${signal}`,
      );
    } else if (signal === 'SIGTERM' && exit.code !== 0) {
      this.problems.push(
        `${instance.name} exited with code ${exit.code} (signal ${exit.signal}) after its SIGTERM`,
      );
    }
  }

  private async pause(target: string, durationMs: number): Promise<string> {
    const picked = this.pick(target);
    if (!picked) return 'skipped: no running instance';
    const { slot, instance } = picked;
    this.paused.add(instance);
    instance.service.signal('SIGSTOP');
    try {
      await sleep(durationMs);
    } finally {
      if (this.paused.delete(instance)) instance.service.signal('SIGCONT');
    }
    return `${instance.name} in slot-${slot + 1}: SIGSTOP, SIGCONT ${durationMs} ms later`;
  }
}
