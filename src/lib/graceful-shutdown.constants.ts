import { hostname } from 'node:os';
import type { GracefulShutdownModuleOptions } from './graceful-shutdown-options.interface';

/** Options with every default filled in. */
export type ResolvedShutdownOptions = Required<Omit<GracefulShutdownModuleOptions, 'signalBus' | 'dataSourceName'>> &
  Pick<GracefulShutdownModuleOptions, 'signalBus' | 'dataSourceName'>;

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
    recoverOrphanedRunsOnBoot: options.recoverOrphanedRunsOnBoot ?? true,
    instanceId: options.instanceId ?? `${hostname()}-${process.pid}`,
    signalBus: options.signalBus,
    dataSourceName: options.dataSourceName,
  };
  if (!(resolved.drainTimeoutMs >= 0)) throw new RangeError('drainTimeoutMs must be 0 or more milliseconds');
  if (!(resolved.shutdownTimeoutMs > resolved.drainTimeoutMs)) {
    throw new RangeError(
      `shutdownTimeoutMs (${resolved.shutdownTimeoutMs}) must be greater than drainTimeoutMs (${resolved.drainTimeoutMs}): the difference is the time to save interrupted runs and close`,
    );
  }
  return resolved;
}
