import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { RESOLVED_SHUTDOWN_OPTIONS } from '../tokens/graceful-shutdown.tokens.js';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import { SESSION_STORE, type SessionStore } from '../contracts/session-store.interface.js';
import { EventLogger } from '../logging/event-logger.js';

/** How many renewals `confirm` tries before it gives a lease up as lost. */
const CONFIRM_ATTEMPTS = 3;

/** A lease this process holds for one run attempt. */
interface HeldLease {
  threadId: string;
  onLost: () => void;
}

/**
 * Keeps the leases of this process's runs alive: every `leaseRenewIntervalMs` it renews all
 * of them in one batched write (the store's load does not grow per run), and tells a run
 * whose lease is gone (taken over by another instance, or recovered as a crash while this
 * process was paused) to stop. A renewal that fails because the database is unreachable
 * stops nothing: if another instance takes the thread over meanwhile, fencing refuses the
 * old run's writes.
 */
@Injectable()
export class LeaseKeeper implements OnApplicationShutdown {
  private readonly logger = new EventLogger('LeaseKeeper');
  private readonly held = new Map<string, HeldLease>();
  private timer?: NodeJS.Timeout;
  private renewing = false;

  constructor(
    @Inject(RESOLVED_SHUTDOWN_OPTIONS) private readonly options: ResolvedShutdownOptions,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
  ) {}

  get size(): number {
    return this.held.size;
  }

  /** The run keys whose leases this process holds and renews: the crash sweep leaves them alone. */
  heldRunKeys(): string[] {
    return [...this.held.keys()];
  }

  /** Renews the lease of run attempt `runKey` until the returned release is called. */
  hold(runKey: string, threadId: string, onLost: () => void): () => void {
    this.held.set(runKey, { threadId, onLost });
    this.timer ??= setInterval(() => void this.renew(), this.options.leaseRenewIntervalMs).unref();
    return () => {
      this.held.delete(runKey);
      if (this.held.size === 0) this.stopTimer();
    };
  }

  /**
   * Resolves once the lease of run attempt `runKey` is surely still held: called before the run
   * starts a side effect (a tool call). `extendedAt` is `performance.now()` when the write that
   * last extended the lease (the call's record) was sent, so the lease lasts at least the lease
   * length from then. Past half of it (the process was paused, or its event loop starved,
   * between that write and now) the lease is renewed first, until a renewal comes back within
   * half a lease, at most `CONFIRM_ATTEMPTS` times: a paused instance that wakes up after
   * another took its run over must not run the call again. Rejects with `LeaseLostError`, and
   * stops the run, when the lease is gone or could not be confirmed.
   */
  async confirm(runKey: string, threadId: string, extendedAt: number): Promise<void> {
    const fresh = (since: number) => performance.now() - since < this.options.leaseTtlMs / 2;
    if (fresh(extendedAt)) return;
    for (let attempt = 0; attempt < CONFIRM_ATTEMPTS; attempt++) {
      const sentAt = performance.now();
      if ((await this.store.renewLeases(this.options.instanceId, [runKey])).length > 0) break;
      if (fresh(sentAt)) return;
    }
    this.lose(runKey, threadId, 'lease lost before a tool call, stopping run');
    throw new LeaseLostError(threadId, runKey);
  }

  /** One renewal round; the timer calls it, and tests call it to not wait for the timer. */
  async renew(): Promise<void> {
    if (this.renewing || this.held.size === 0) return;
    this.renewing = true;
    try {
      const lost = await this.store.renewLeases(this.options.instanceId, [...this.held.keys()]);
      for (const runKey of lost) {
        const lease = this.held.get(runKey);
        if (lease) this.lose(runKey, lease.threadId, 'lease lost, stopping run');
      }
    } catch (error) {
      this.logger.warn('leases not renewed', { leases: this.held.size, error: String(error) });
    } finally {
      this.renewing = false;
    }
  }

  /** Forgets a lease that is gone and tells its run to stop (once: the lease is no longer held after). */
  private lose(runKey: string, threadId: string, msg: string): void {
    const lease = this.held.get(runKey);
    this.held.delete(runKey);
    this.logger.warn(msg, { threadId, runKey });
    lease?.onLost();
  }

  onApplicationShutdown(): void {
    this.stopTimer();
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
