import { resolveShutdownOptions } from './options/resolve-shutdown-options.js';

describe('resolveShutdownOptions: leases', () => {
  it('renews every third of the lease length by default', () => {
    expect(resolveShutdownOptions({ leases: { ttlMs: 1_500 } })).toMatchObject({ leaseTtlMs: 1_500, leaseRenewIntervalMs: 500 });
  });

  it('refuses a renewal interval longer than a third of the lease, naming both options', () => {
    expect(() => resolveShutdownOptions({ leases: { ttlMs: 15_000, renewIntervalMs: 5_001 } })).toThrow(
      /leases\.renewIntervalMs \(5001\) must be more than 0 and at most a third of leases\.ttlMs \(15000\)/,
    );
  });
});
