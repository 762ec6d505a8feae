import { hostname } from 'node:os';
import type { AgentHook } from '../agent/agent-hook.interface';
import type { GracefulShutdownModuleOptions } from './graceful-shutdown-options.interface';
import { assertKnownOptions } from './known-options';
import { defaultResumeMessage, type ResumeMessageTemplate } from '../resume/resume-message';
import { resolveRunLimits, type ResolvedRunLimits } from './run-limits';
import type { SignalBus } from '../contracts/signal-bus.interface';
import type { RunEventLog } from '../contracts/run-event-log.interface';

/** The defaults of every option, in one place (the option docs repeat them). */
export const DEFAULT_OPTIONS = {
  drainTimeoutMs: 20_000,
  shutdownTimeoutMs: 25_000,
  retryAfterSeconds: 2,
  handleSignals: true,
  signals: ['SIGTERM', 'SIGINT'] as NodeJS.Signals[],
  leaseTtlMs: 15_000,
  cancelTtlMs: 60_000,
  partialOutput: 'save' as const,
  defaultStepDurationMs: 5_000,
  sseHeartbeatMs: 15_000,
  streamRetentionMs: 3_600_000,
  onDisconnect: 'continue' as const,
} as const;

/** The options with every default filled in, flat, as the module's services read them. */
export interface ResolvedShutdownOptions {
  drainTimeoutMs: number;
  shutdownTimeoutMs: number;
  retryAfterSeconds: number;
  handleSignals: boolean;
  signals: NodeJS.Signals[];
  leaseTtlMs: number;
  leaseRenewIntervalMs: number;
  recoverOrphanedRunsOnBoot?: boolean;
  redisUrl?: string;
  signalBus?: SignalBus;
  cancelTtlMs: number;
  hooks: AgentHook[];
  partialOutput: 'save' | 'discard';
  defaultStepDurationMs: number;
  sseHeartbeatMs: number;
  resumeMessage: ResumeMessageTemplate;
  /** Unset: decided from the store and the bus (see `RunOptions.resumeMode`). */
  resumeMode?: 'client' | 'auto';
  onDisconnect: 'continue' | 'cancel';
  streamRetentionMs: number;
  eventLog?: RunEventLog;
  dataSourceName?: string;
  instanceId: string;
  /** Per-user limits; 0 is no limit. */
  limits: ResolvedRunLimits;
}

/** Fills in defaults and rejects options that cannot work together, naming the option. */
export function resolveShutdownOptions(options: GracefulShutdownModuleOptions = {}): ResolvedShutdownOptions {
  assertKnownOptions(options);
  const { shutdown = {}, leases = {}, signals = {}, runs = {}, streams = {}, limits = {} } = options;
  const leaseTtlMs = leases.ttlMs ?? DEFAULT_OPTIONS.leaseTtlMs;
  const resolved: ResolvedShutdownOptions = {
    drainTimeoutMs: shutdown.drainTimeoutMs ?? DEFAULT_OPTIONS.drainTimeoutMs,
    shutdownTimeoutMs: shutdown.timeoutMs ?? DEFAULT_OPTIONS.shutdownTimeoutMs,
    retryAfterSeconds: shutdown.retryAfterSeconds ?? DEFAULT_OPTIONS.retryAfterSeconds,
    handleSignals: shutdown.handleSignals ?? DEFAULT_OPTIONS.handleSignals,
    signals: shutdown.signals ?? [...DEFAULT_OPTIONS.signals],
    leaseTtlMs,
    leaseRenewIntervalMs: leases.renewIntervalMs ?? Math.floor(leaseTtlMs / 3),
    recoverOrphanedRunsOnBoot: leases.recoverOrphanedRunsOnBoot,
    redisUrl: signals.redisUrl,
    signalBus: signals.bus,
    cancelTtlMs: signals.cancelTtlMs ?? DEFAULT_OPTIONS.cancelTtlMs,
    hooks: runs.hooks ?? [],
    partialOutput: runs.partialOutput ?? DEFAULT_OPTIONS.partialOutput,
    defaultStepDurationMs: runs.defaultStepDurationMs ?? DEFAULT_OPTIONS.defaultStepDurationMs,
    sseHeartbeatMs: runs.sseHeartbeatMs ?? DEFAULT_OPTIONS.sseHeartbeatMs,
    resumeMessage: runs.resumeMessage ?? defaultResumeMessage,
    resumeMode: runs.resumeMode,
    onDisconnect: runs.onDisconnect ?? DEFAULT_OPTIONS.onDisconnect,
    streamRetentionMs: streams.retentionMs ?? DEFAULT_OPTIONS.streamRetentionMs,
    eventLog: streams.log,
    dataSourceName: options.dataSourceName,
    instanceId: options.instanceId ?? `${hostname()}-${process.pid}`,
    limits: resolveRunLimits(limits),
  };
  if (!(resolved.leaseRenewIntervalMs > 0 && resolved.leaseRenewIntervalMs * 3 <= resolved.leaseTtlMs)) {
    throw new RangeError(
      `leases.renewIntervalMs (${resolved.leaseRenewIntervalMs}) must be more than 0 and at most a third of leases.ttlMs (${resolved.leaseTtlMs}): a lease must outlive two missed renewals (a blocked event loop, a slow write), or healthy runs lose it`,
    );
  }
  if (!(resolved.drainTimeoutMs >= 0)) throw new RangeError('shutdown.drainTimeoutMs must be 0 or more milliseconds');
  if (!(resolved.shutdownTimeoutMs > resolved.drainTimeoutMs)) {
    throw new RangeError(
      `shutdown.timeoutMs (${resolved.shutdownTimeoutMs}) must be greater than shutdown.drainTimeoutMs (${resolved.drainTimeoutMs}): the difference is the time to save interrupted runs and close`,
    );
  }
  if (resolved.resumeMode !== undefined && !['client', 'auto'].includes(resolved.resumeMode)) {
    throw new RangeError(`runs.resumeMode must be 'client' or 'auto', got ${String(resolved.resumeMode)}`);
  }
  if (!['continue', 'cancel'].includes(resolved.onDisconnect)) {
    throw new RangeError(`runs.onDisconnect must be 'continue' or 'cancel', got ${String(resolved.onDisconnect)}`);
  }
  if (!(resolved.streamRetentionMs > 0)) throw new RangeError('streams.retentionMs must be more than 0 milliseconds');
  if (!(resolved.sseHeartbeatMs >= 0)) throw new RangeError('runs.sseHeartbeatMs must be 0 (off) or more milliseconds');
  return resolved;
}
