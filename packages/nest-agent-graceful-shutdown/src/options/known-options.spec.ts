import type { GracefulShutdownModuleOptions } from './graceful-shutdown-options.interface.js';
import { assertKnownOptions } from './known-options.js';

const check = (options: unknown) => () =>
  assertKnownOptions(options as GracefulShutdownModuleOptions);

describe('assertKnownOptions', () => {
  it('accepts every group and option the module declares', () => {
    expect(
      check({
        shutdown: {
          drainTimeoutMs: 1,
          timeoutMs: 2,
          retryAfterSeconds: 1,
          handleSignals: false,
          signals: ['SIGTERM'],
        },
        leases: { ttlMs: 3, renewIntervalMs: 1, recoverOrphanedRunsOnBoot: true },
        signals: { redisUrl: 'redis://x', cancelTtlMs: 1 },
        runs: { hooks: [], partialOutput: 'save', resumeMode: 'auto' },
        streams: { retentionMs: 1 },
        limits: { maxActiveRunsPerUser: 1 },
        dataSourceName: 'sessions',
        instanceId: 'a',
      }),
    ).not.toThrow();
  });

  it('refuses a grouped option at the top level, saying where it belongs', () => {
    expect(check({ drainTimeoutMs: 5_000 })).toThrow(
      new TypeError(
        'unknown option drainTimeoutMs: it belongs at shutdown.drainTimeoutMs, as in GracefulShutdownModule.forRoot({ shutdown: { drainTimeoutMs: … } })',
      ),
    );
  });

  it('maps a name of the flat shape to its grouped option', () => {
    expect(check({ leaseTtlMs: 5_000 })).toThrow(
      'unknown option leaseTtlMs: it belongs at leases.ttlMs',
    );
  });

  it('refuses an option in the wrong group, saying which group has it', () => {
    expect(check({ shutdown: { ttlMs: 5_000 } })).toThrow(
      'unknown option shutdown.ttlMs: it belongs at leases.ttlMs',
    );
  });

  it('refuses a name no group has, listing what the group takes', () => {
    expect(check({ runs: { partialOuput: 'save' } })).toThrow(
      'unknown option runs.partialOuput; runs takes hooks, partialOutput, defaultStepDurationMs, sseHeartbeatMs, resumeMode, onDisconnect, resumeMessage',
    );
  });

  it('refuses a group that is not an object', () => {
    expect(check({ leases: 5_000 })).toThrow(
      'option leases must be an object of leases options (ttlMs, renewIntervalMs, recoverOrphanedRunsOnBoot), got 5000',
    );
  });

  it('sends an array of process signals under signals to shutdown.signals', () => {
    expect(check({ signals: ['SIGTERM'] })).toThrow(
      'the process signals to handle belong at shutdown.signals',
    );
  });

  it("lets forRoot's module settings through", () => {
    expect(
      check({ isGlobal: false, store: { useValue: {} }, threadAccess: { useValue: {} } }),
    ).not.toThrow();
  });
});
