import { hostname } from 'node:os';
import type { GracefulShutdownModuleOptions } from './graceful-shutdown-options.interface';

type OptionalOptions = 'signalBus' | 'dataSourceName' | 'redisUrl' | 'recoverOrphanedRunsOnBoot';

/** Options with every default filled in. */
export type ResolvedShutdownOptions = Required<Omit<GracefulShutdownModuleOptions, OptionalOptions>> &
  Pick<GracefulShutdownModuleOptions, OptionalOptions>;

/** Injection token of the resolved options. */
export const RESOLVED_SHUTDOWN_OPTIONS = Symbol('RESOLVED_SHUTDOWN_OPTIONS');

/** Fills in defaults and rejects options that cannot work together. */
export function resolveShutdownOptions(options: GracefulShutdownModuleOptions): ResolvedShutdownOptions {
  const resolved: ResolvedShutdownOptions = {
    drainTimeoutMs: options.drainTimeoutMs ?? 20_000,
    shutdownTimeoutMs: options.shutdownTimeoutMs ?? 25_000,
    retryAfterSeconds: options.retryAfterSeconds ?? 2,
    handleSignals: options.handleSignals ?? true,
    signals: options.signals ?? ['SIGTERM', 'SIGINT'],
    hooks: options.hooks ?? [],
    recoverOrphanedRunsOnBoot: options.recoverOrphanedRunsOnBoot,
    instanceId: options.instanceId ?? `${hostname()}-${process.pid}`,
    signalBus: options.signalBus,
    redisUrl: options.redisUrl,
    cancelTtlMs: options.cancelTtlMs ?? 60_000,
    partialOutput: options.partialOutput ?? 'save',
    defaultStepDurationMs: options.defaultStepDurationMs ?? 5_000,
    leaseTtlMs: options.leaseTtlMs ?? 15_000,
    leaseRenewIntervalMs: options.leaseRenewIntervalMs ?? Math.floor((options.leaseTtlMs ?? 15_000) / 3),
    dataSourceName: options.dataSourceName,
  };
  if (!(resolved.leaseRenewIntervalMs > 0 && resolved.leaseRenewIntervalMs < resolved.leaseTtlMs)) {
    throw new RangeError(
      `leaseRenewIntervalMs (${resolved.leaseRenewIntervalMs}) must be more than 0 and less than leaseTtlMs (${resolved.leaseTtlMs}), or leases expire between renewals`,
    );
  }
  if (!(resolved.drainTimeoutMs >= 0)) throw new RangeError('drainTimeoutMs must be 0 or more milliseconds');
  if (!(resolved.shutdownTimeoutMs > resolved.drainTimeoutMs)) {
    throw new RangeError(
      `shutdownTimeoutMs (${resolved.shutdownTimeoutMs}) must be greater than drainTimeoutMs (${resolved.drainTimeoutMs}): the difference is the time to save interrupted runs and close`,
    );
  }
  return resolved;
}
