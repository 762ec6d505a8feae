import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { RESOLVED_SHUTDOWN_OPTIONS, type ResolvedShutdownOptions } from '../graceful-shutdown.constants';
import { CrashedRunSweeper } from '../leases/crashed-run-sweeper.service';
import { AgentRunService } from '../runs/agent-run.service';
import { SESSION_STORE, type SessionStore } from '../session/session-store.interface';
import { ShutdownCoordinator } from '../shutdown/shutdown-coordinator.service';
import { SIGNAL_BUS, type SignalBus, type Unsubscribe } from '../signals/signal-bus.interface';

/** Threads read per sweep round, and how many are being claimed at once. */
const SWEEP_BATCH = 100;
const CLAIMS_AT_ONCE = 8;

/**
 * Resume mode `auto`: this instance continues interrupted runs without their clients. It
 * hears at once of a run another instance handed over at its shutdown (the run-ended signal),
 * and sweeps at boot and once per lease period for the rest: runs of a crashed instance whose
 * lease expired, and runs no instance was left to take. Claiming is the store's `startRun`
 * on the run's last attempt, so of all the instances that try, exactly one continues a run.
 */
@Injectable()
export class AutoResumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('GracefulShutdown');
  private readonly claiming = new Set<string>();
  private timer?: NodeJS.Timeout;
  private unsubscribe?: Unsubscribe;
  private sweeping?: Promise<number>;

  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(SIGNAL_BUS) private readonly signals: SignalBus,
    private readonly runs: AgentRunService,
    private readonly crashes: CrashedRunSweeper,
    private readonly coordinator: ShutdownCoordinator,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.runs.resumeMode !== 'auto') return;
    this.unsubscribe = this.signals.onAnyRunEnded?.((signal) => {
      if (signal.status === 'interrupted') void this.claim(signal.threadId);
    });
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.options.leaseTtlMs).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.unsubscribe?.();
  }

  /** Records expired leases as crashes, then continues every interrupted run it can; returns how many it started. */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<number> {
    if (this.coordinator.isShuttingDown || !this.store.findInterruptedThreads) return 0;
    await this.crashes.sweep();
    let started = 0;
    try {
      const threadIds = await this.store.findInterruptedThreads(SWEEP_BATCH);
      for (let i = 0; i < threadIds.length; i += CLAIMS_AT_ONCE) {
        const claimed = await Promise.all(threadIds.slice(i, i + CLAIMS_AT_ONCE).map((threadId) => this.claim(threadId)));
        started += claimed.filter(Boolean).length;
      }
    } catch (error) {
      this.logger.warn({ msg: 'interrupted-run sweep failed', error: String(error) });
    }
    return started;
  }

  /** Tries to continue one thread; false when it is not interrupted, not runnable here, or another instance was first. */
  private async claim(threadId: string): Promise<boolean> {
    if (this.coordinator.isShuttingDown || this.claiming.has(threadId)) return false;
    this.claiming.add(threadId);
    try {
      const run = await this.runs.continueInterrupted(threadId);
      if (!run) return false;
      this.logger.log({ msg: 'continuing interrupted run', threadId, runId: run.runId });
      void run.execute().catch((error: unknown) => this.logger.error({ msg: 'continued run failed', threadId, runId: run.runId, error: String(error) }));
      return true;
    } catch (error) {
      this.logger.warn({ msg: 'interrupted run not continued', threadId, error: String(error) });
      return false;
    } finally {
      this.claiming.delete(threadId);
    }
  }
}
