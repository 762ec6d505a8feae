import type { MultitaskStrategy } from '../agent/multitask.js';
import { hostname } from 'node:os';
import type { AgentHook } from '../agent/agent-hook.interface.js';
import type {
  GracefulShutdownModuleOptions,
  PostgresSignalSettings,
  RedisClientLike,
} from './graceful-shutdown-options.interface.js';
import { assertKnownOptions } from './known-options.js';
import type { ResumeMessageTemplate } from '../resume/resume-message.js';
import type { VersionChangePolicy } from '../agent/agent-release.js';
import { defaultAgentVersion } from './default-agent-version.js';
import { resolveOptionGroup } from './option-group.js';
import {
  LEASE_OPTIONS,
  RUN_OPTIONS,
  SHUTDOWN_OPTIONS,
  SIGNAL_OPTIONS,
  STREAM_OPTIONS,
} from './option-groups.js';
import { resolveRunLimits, type ResolvedRunLimits } from './run-limits.js';
import type { SignalBus } from '../contracts/signal-bus.interface.js';
import type { RunEventLog } from '../contracts/run-event-log.interface.js';

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
  /** Set: the PostgreSQL signal bus, with these settings. */
  postgresSignals?: PostgresSignalSettings;
  /** `redisUrl` names a seed node of a Redis Cluster. */
  redisCluster: boolean;
  redisClient?: RedisClientLike;
  signalBus?: SignalBus;
  cancelTtlMs: number;
  hooks: AgentHook[];
  partialOutput: 'save' | 'discard';
  defaultStepDurationMs: number;
  sseHeartbeatMs: number;
  resumeMessage: ResumeMessageTemplate;
  /** The version label of agents that set none. */
  agentVersion: string;
  onVersionChange: VersionChangePolicy;
  /** Unset: decided from the store and the bus (see `RunOptions.resumeMode`). */
  resumeMode?: 'client' | 'auto';
  onDisconnect: 'continue' | 'cancel';
  multitask: MultitaskStrategy;
  streamRetentionMs: number;
  eventLog?: RunEventLog;
  dataSourceName?: string;
  instanceId: string;
  /** Per-user limits; 0 is no limit. */
  limits: ResolvedRunLimits;
}

/**
 * Refuses unknown or misplaced options, resolves each group through its declaration
 * (`option-groups.ts`: defaults, and what each value must be), checks the options that depend
 * on each other, and flattens the groups into the shape the module's services read.
 *
 * @throws `TypeError` for an unknown or misplaced option, or a bad value of a boolean, string,
 * function, object or array option; `RangeError` for a bad number or choice. Each names the option.
 */
export function resolveShutdownOptions(
  options: GracefulShutdownModuleOptions = {},
): ResolvedShutdownOptions {
  assertKnownOptions(options);
  const shutdown = resolveOptionGroup('shutdown', SHUTDOWN_OPTIONS, options.shutdown);
  const leases = resolveOptionGroup('leases', LEASE_OPTIONS, options.leases);
  const signals = resolveOptionGroup('signals', SIGNAL_OPTIONS, options.signals);
  const runs = resolveOptionGroup('runs', RUN_OPTIONS, options.runs);
  const streams = resolveOptionGroup('streams', STREAM_OPTIONS, options.streams);
  const limits = resolveRunLimits(options.limits);
  assertRenewalFitsLease(leases.renewIntervalMs, leases.ttlMs);
  assertDeadlineAfterDrain(shutdown.timeoutMs, shutdown.drainTimeoutMs);
  assertOneSignalTransport(signals.postgres, signals.redisUrl ?? signals.redisClient);
  assertOneRedis(signals.redisUrl, signals.redisCluster, signals.redisClient);
  return {
    drainTimeoutMs: shutdown.drainTimeoutMs,
    shutdownTimeoutMs: shutdown.timeoutMs,
    retryAfterSeconds: shutdown.retryAfterSeconds,
    handleSignals: shutdown.handleSignals,
    signals: shutdown.signals,
    leaseTtlMs: leases.ttlMs,
    leaseRenewIntervalMs: leases.renewIntervalMs,
    recoverOrphanedRunsOnBoot: leases.recoverOrphanedRunsOnBoot,
    redisUrl: signals.redisUrl,
    postgresSignals: signals.postgres === true ? {} : signals.postgres,
    redisCluster: signals.redisCluster,
    redisClient: signals.redisClient,
    signalBus: signals.bus,
    cancelTtlMs: signals.cancelTtlMs,
    hooks: runs.hooks,
    partialOutput: runs.partialOutput,
    defaultStepDurationMs: runs.defaultStepDurationMs,
    sseHeartbeatMs: runs.sseHeartbeatMs,
    resumeMessage: runs.resumeMessage,
    agentVersion: runs.agentVersion ?? defaultAgentVersion(),
    onVersionChange: runs.onVersionChange,
    resumeMode: runs.resumeMode,
    onDisconnect: runs.onDisconnect,
    multitask: runs.multitask,
    streamRetentionMs: streams.retentionMs,
    eventLog: streams.log,
    dataSourceName: options.dataSourceName,
    instanceId: options.instanceId ?? `${hostname()}-${process.pid}`,
    limits,
  };
}

function assertOneRedis(
  url: string | undefined,
  cluster: boolean,
  client: RedisClientLike | undefined,
): void {
  if (url !== undefined && client !== undefined) {
    throw new TypeError(
      'signals.redisUrl and signals.redisClient both name a Redis: give one of them',
    );
  }
  if (cluster && url === undefined) {
    throw new TypeError(
      'signals.redisCluster needs signals.redisUrl, a seed node of the cluster (or pass a Cluster as signals.redisClient)',
    );
  }
}

function assertRenewalFitsLease(renewIntervalMs: number, ttlMs: number): void {
  if (renewIntervalMs > 0 && renewIntervalMs * 3 <= ttlMs) return;
  throw new RangeError(
    `leases.renewIntervalMs (${renewIntervalMs}) must be more than 0 and at most a third of leases.ttlMs (${ttlMs}): a lease must outlive two missed renewals (a blocked event loop, a slow write), or healthy runs lose it`,
  );
}

function assertOneSignalTransport(postgres: unknown, redis: unknown): void {
  if (postgres === undefined || redis === undefined) return;
  throw new TypeError(
    'signals.postgres and signals.redisUrl (or signals.redisClient) cannot both be set: choose one cross-instance signal bus (Redis also carries the run event log)',
  );
}

function assertDeadlineAfterDrain(timeoutMs: number, drainTimeoutMs: number): void {
  if (timeoutMs > drainTimeoutMs) return;
  throw new RangeError(
    `shutdown.timeoutMs (${timeoutMs}) must be greater than shutdown.drainTimeoutMs (${drainTimeoutMs}): the difference is the time to save interrupted runs and close`,
  );
}
