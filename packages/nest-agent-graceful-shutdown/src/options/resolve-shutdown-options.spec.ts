import { defaultAgentVersion } from './default-agent-version.js';
import { hostname } from 'node:os';
import { InProcessSignalBus } from '../signals/in-process-signal-bus.js';
import { defaultResumeMessage } from '../resume/resume-message.js';
import type { GracefulShutdownModuleOptions } from './graceful-shutdown-options.interface.js';
import { resolveShutdownOptions } from './resolve-shutdown-options.js';

const resolve = (options: unknown) => () =>
  resolveShutdownOptions(options as GracefulShutdownModuleOptions);

describe('resolveShutdownOptions', () => {
  it('applies the documented default of every option', () => {
    expect(resolveShutdownOptions({ instanceId: 'a' })).toEqual({
      drainTimeoutMs: 20_000,
      shutdownTimeoutMs: 25_000,
      retryAfterSeconds: 2,
      handleSignals: true,
      signals: ['SIGTERM', 'SIGINT'],
      leaseTtlMs: 15_000,
      leaseRenewIntervalMs: 5_000,
      recoverOrphanedRunsOnBoot: undefined,
      redisUrl: undefined,
      redisCluster: false,
      redisClient: undefined,
      signalBus: undefined,
      cancelTtlMs: 60_000,
      hooks: [],
      partialOutput: 'save',
      defaultStepDurationMs: 5_000,
      sseHeartbeatMs: 15_000,
      resumeMessage: defaultResumeMessage,
      agentVersion: defaultAgentVersion(),
      onVersionChange: 'adapt',
      resumeMode: undefined,
      onDisconnect: 'continue',
      multitask: 'reject',
      streamRetentionMs: 3_600_000,
      eventLog: undefined,
      dataSourceName: undefined,
      instanceId: 'a',
      limits: {
        maxActiveRunsPerUser: 0,
        maxMessagesPerRequest: 0,
        maxHistoryMessages: 0,
        maxThreadBytes: 0,
      },
    });
  });

  it('names this process by host and pid without an instanceId', () => {
    expect(resolveShutdownOptions().instanceId).toBe(`${hostname()}-${process.pid}`);
  });

  it('takes the values given, each under its flat name', () => {
    const bus = new InProcessSignalBus();
    expect(
      resolveShutdownOptions({
        shutdown: { drainTimeoutMs: 0, timeoutMs: 1_000, signals: ['SIGUSR2'] },
        signals: { redisUrl: 'redis://cache:6379', bus },
        runs: { resumeMode: 'auto', sseHeartbeatMs: 0 },
        streams: { retentionMs: 60_000 },
        limits: { maxActiveRunsPerUser: 3 },
      }),
    ).toMatchObject({
      drainTimeoutMs: 0,
      shutdownTimeoutMs: 1_000,
      signals: ['SIGUSR2'],
      redisUrl: 'redis://cache:6379',
      signalBus: bus,
      resumeMode: 'auto',
      sseHeartbeatMs: 0,
      streamRetentionMs: 60_000,
      limits: { maxActiveRunsPerUser: 3, maxMessagesPerRequest: 0 },
    });
  });

  it('gives each resolution its own default arrays', () => {
    resolveShutdownOptions().signals.push('SIGHUP');
    expect(resolveShutdownOptions().signals).toEqual(['SIGTERM', 'SIGINT']);
  });

  it('refuses a number out of range, naming the option and what it must be', () => {
    expect(resolve({ shutdown: { drainTimeoutMs: -1 } })).toThrow(
      new RangeError(
        'shutdown.drainTimeoutMs must be a finite number of milliseconds ≥ 0 (0: stop runs at once), got -1',
      ),
    );
    expect(resolve({ streams: { retentionMs: 0 } })).toThrow(
      new RangeError('streams.retentionMs must be a finite number of milliseconds > 0, got 0'),
    );
    expect(resolve({ signals: { cancelTtlMs: 2.5 } })).toThrow(
      new RangeError('signals.cancelTtlMs must be a whole number of milliseconds > 0, got 2.5'),
    );
    expect(resolve({ shutdown: { retryAfterSeconds: 1.5 } })).toThrow(
      new RangeError('shutdown.retryAfterSeconds must be a whole number ≥ 0, got 1.5'),
    );
  });

  it('refuses a value of the wrong kind with a TypeError naming the option', () => {
    expect(resolve({ shutdown: { handleSignals: 'no' } })).toThrow(
      new TypeError("shutdown.handleSignals must be true or false, got 'no'"),
    );
    expect(resolve({ runs: { resumeMessage: 'resumed' } })).toThrow(
      new TypeError("runs.resumeMessage must be a function, got 'resumed'"),
    );
    expect(resolve({ signals: { redisUrl: '' } })).toThrow(
      new TypeError("signals.redisUrl must be a non-empty string, got ''"),
    );
    expect(resolve({ signals: { bus: {} } })).toThrow(
      new TypeError(
        'signals.bus must be a SignalBus (an object with publishCancel, onCancel, publishRunEnded, onRunEnded), got an object',
      ),
    );
  });

  it('takes signals.postgres as true or settings, and refuses it beside signals.redisUrl', () => {
    expect(resolveShutdownOptions({ signals: { postgres: true } }).postgresSignals).toEqual({});
    expect(
      resolveShutdownOptions({ signals: { postgres: { channelPrefix: 'app_' } } }).postgresSignals,
    ).toEqual({ channelPrefix: 'app_' });
    expect(resolve({ signals: { postgres: 'yes' } })).toThrow(
      new TypeError("signals.postgres must be true or { channelPrefix?: string }, got 'yes'"),
    );
    expect(resolve({ signals: { postgres: true, redisUrl: 'redis://cache:6379' } })).toThrow(
      /^signals\.postgres and signals\.redisUrl \(or signals\.redisClient\) cannot both be set/,
    );
    expect(
      resolve({
        signals: { postgres: true, redisClient: { isCluster: false, duplicate: () => undefined } },
      }),
    ).toThrow(
      /^signals\.postgres and signals\.redisUrl \(or signals\.redisClient\) cannot both be set/,
    );
  });

  it('refuses two Redis settings at once, and a cluster without a seed node', () => {
    const client = { isCluster: true, duplicate: () => undefined };
    expect(resolve({ signals: { redisUrl: 'redis://a:6379', redisClient: client } })).toThrow(
      new TypeError('signals.redisUrl and signals.redisClient both name a Redis: give one of them'),
    );
    expect(resolve({ signals: { redisCluster: true } })).toThrow(
      /signals.redisCluster needs signals.redisUrl/,
    );
    expect(
      resolveShutdownOptions({ signals: { redisUrl: 'redis://a:6379', redisCluster: true } }),
    ).toMatchObject({ redisCluster: true });
    expect(resolveShutdownOptions({ signals: { redisClient: client } }).redisClient).toBe(client);
  });

  it('refuses a process signal Node does not know', () => {
    expect(resolve({ shutdown: { signals: ['SIGTERM', 'TERM'] } })).toThrow(
      "shutdown.signals must be an array of process signal names ('SIGTERM'), got ['SIGTERM', 'TERM']",
    );
  });

  it('refuses a value outside a choice, listing the choices', () => {
    expect(resolve({ runs: { resumeMode: 'manual' } })).toThrow(
      new RangeError("runs.resumeMode must be 'client' or 'auto', got 'manual'"),
    );
    expect(resolve({ runs: { onDisconnect: 'stop' } })).toThrow(
      new RangeError("runs.onDisconnect must be 'continue' or 'cancel', got 'stop'"),
    );
    expect(resolve({ runs: { multitask: 'queue' } })).toThrow(
      new RangeError(
        "runs.multitask must be 'reject', 'enqueue', 'interrupt' or 'rollback', got 'queue'",
      ),
    );
  });

  it('refuses a limit that is not a whole number, saying 0 is no limit', () => {
    expect(resolve({ limits: { maxHistoryMessages: -5 } })).toThrow(
      'limits.maxHistoryMessages must be a whole number ≥ 0 (0: no limit), got -5',
    );
  });

  it('refuses a hard deadline not after the drain, naming both options', () => {
    expect(resolve({ shutdown: { drainTimeoutMs: 30_000 } })).toThrow(
      /^shutdown\.timeoutMs \(25000\) must be greater than shutdown\.drainTimeoutMs \(30000\)/,
    );
  });

  it('renews every third of the lease length by default', () => {
    expect(resolveShutdownOptions({ leases: { ttlMs: 1_500 } })).toMatchObject({
      leaseTtlMs: 1_500,
      leaseRenewIntervalMs: 500,
    });
  });

  it('refuses a renewal interval longer than a third of the lease, naming both options', () => {
    expect(() =>
      resolveShutdownOptions({ leases: { ttlMs: 15_000, renewIntervalMs: 5_001 } }),
    ).toThrow(
      /leases\.renewIntervalMs \(5001\) must be more than 0 and at most a third of leases\.ttlMs \(15000\)/,
    );
  });

  it('refuses a lease too short for its derived renewal', () => {
    expect(resolve({ leases: { ttlMs: 2 } })).toThrow(
      /^leases\.renewIntervalMs \(0\) must be more than 0 and at most a third of leases\.ttlMs \(2\)/,
    );
  });

  it('refuses a misplaced option before any value is checked, saying where it belongs', () => {
    expect(resolve({ shutdown: { ttlMs: -1 } })).toThrow(
      new TypeError(
        'unknown option shutdown.ttlMs: it belongs at leases.ttlMs, as in GracefulShutdownModule.forRoot({ leases: { ttlMs: … } })',
      ),
    );
  });
});
