import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { CrashedRunSweeper } from '../leases/crashed-run-sweeper.service.js';
import { AgentRunService } from './agent-run.service.js';
import { SESSION_STORE, type SessionStore } from '../contracts/session-store.interface.js';
import { ShutdownCoordinator } from '../shutdown/shutdown-coordinator.service.js';
import { SIGNAL_BUS, type SignalBus, type Unsubscribe } from '../contracts/signal-bus.interface.js';
import { EventLogger } from '../logging/event-logger.js';

/** Threads read per sweep round, and how many are being claimed at once. */
const SWEEP_BATCH = 100;
const CLAIMS_AT_ONCE = 8;

/**
 * Resume mode `auto`: this instance continues interrupted runs without their clients. It
 * hears at once of a run another instance handed over at its shutdown (the run-ended signal),
 * and after each crash sweep (at boot and once per lease period) takes the rest: runs of a
 * crashed instance whose lease expired, and runs no instance was left to take. Claiming is the store's `startRun`
 * on the run's last attempt, so of all the instances that try, exactly one continues a run.
 */
@Injectable()
export class AutoResumer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new EventLogger('GracefulShutdown');
  private readonly claiming = new Set<string>();
  private readonly unsubscribe: Unsubscribe[] = [];
  private sweeping?: Promise<number>;

  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(SIGNAL_BUS) private readonly signals: SignalBus,
    private readonly runs: AgentRunService,
    private readonly crashes: CrashedRunSweeper,
    private readonly coordinator: ShutdownCoordinator,
  ) {}

  /** In resume mode `auto`: listens for handed-over runs, and continues what each crash sweep (boot, then every lease period) leaves interrupted. */
  onModuleInit(): void {
    if (this.runs.resumeMode !== 'auto') return;
    const onEnded = this.signals.onAnyRunEnded?.((signal) => {
      if (signal.status === 'interrupted') void this.claim(signal.threadId);
    });
    if (onEnded) this.unsubscribe.push(onEnded);
    this.unsubscribe.push(this.crashes.onSwept(() => this.sweep()));
  }

  onApplicationShutdown(): void {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
  }

  /** Continues every interrupted run it can (the crash sweep has just recorded the crashed ones); returns how many it started. */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<number> {
    if (this.coordinator.isShuttingDown || !this.store.findInterruptedThreads) return 0;
    let started = 0;
    try {
      const threadIds = await this.store.findInterruptedThreads(SWEEP_BATCH);
      for (let i = 0; i < threadIds.length; i += CLAIMS_AT_ONCE) {
        const claimed = await Promise.all(
          threadIds.slice(i, i + CLAIMS_AT_ONCE).map((threadId) => this.claim(threadId)),
        );
        started += claimed.filter(Boolean).length;
      }
    } catch (error) {
      this.logger.warn('interrupted-run sweep failed', { error: String(error) });
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
      this.logger.log('continuing interrupted run', { threadId, runId: run.runId });
      void run.execute().catch((error: unknown) =>
        this.logger.error('continued run failed', {
          threadId,
          runId: run.runId,
          error: String(error),
        }),
      );
      return true;
    } catch (error) {
      this.logger.warn('interrupted run not continued', { threadId, error: String(error) });
      return false;
    } finally {
      this.claiming.delete(threadId);
    }
  }
}
