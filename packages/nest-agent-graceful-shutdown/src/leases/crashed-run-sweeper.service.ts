import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { RESOLVED_SHUTDOWN_OPTIONS } from '../tokens/graceful-shutdown.tokens.js';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import { SESSION_STORE, type SessionStore } from '../contracts/session-store.interface.js';
import { LeaseKeeper } from './lease-keeper.service.js';
import { EventLogger } from '../logging/event-logger.js';

/**
 * No thread stays `running` forever: at boot and then once per lease period, runs whose
 * lease expired (their instance died without saving) are recorded as interrupted by a
 * crash, so they read `interrupted` and resume on their next run request. Status reads
 * do the same for one thread at once; this catches the threads nobody reads. Expiry is
 * judged on the database's clock, runs this process still renews are never taken, and a
 * thread whose row another transaction holds is skipped until the next round.
 */
@Injectable()
export class CrashedRunSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new EventLogger('GracefulShutdown');
  private timer?: NodeJS.Timeout;
  private readonly afterSweep = new Set<() => Promise<unknown>>();

  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly leases: LeaseKeeper,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const exclusive = this.options.recoverOrphanedRunsOnBoot ?? this.store.isExclusive?.() ?? false;
    await this.round(exclusive ? this.options.instanceId : undefined);
    this.timer = setInterval(() => void this.round(), this.options.leaseTtlMs).unref();
  }

  /**
   * Runs `work` after each sweep, at boot and then once per lease period (how resume mode
   * `auto` continues the runs a sweep found). Register before the application bootstraps.
   * @returns a function that unregisters it.
   */
  onSwept(work: () => Promise<unknown>): () => void {
    this.afterSweep.add(work);
    return () => this.afterSweep.delete(work);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async round(exclusiveInstanceId?: string): Promise<void> {
    await this.sweep(exclusiveInstanceId);
    for (const work of this.afterSweep) await work();
  }

  /** @param exclusiveInstanceId set at boot on a store no other instance shares: every other instance's run is orphaned. */
  async sweep(exclusiveInstanceId?: string): Promise<number> {
    try {
      const recovered = await this.store.recoverCrashedRuns({
        exclusiveInstanceId,
        exceptRunKeys: this.leases.heldRunKeys(),
      });
      if (recovered > 0)
        this.logger.warn('runs of a lost instance recorded as interrupted', { count: recovered });
      return recovered;
    } catch (error) {
      this.logger.warn('crashed-run sweep failed', { error: String(error) });
      return 0;
    }
  }
}
