import { resolveReconnectOptions } from './reconnect-options.js';
import { ReconnectPolicy } from './reconnect-policy.js';

function policyAt(clock: { now: number }, options = {}): ReconnectPolicy {
  // random() = 1 − ε: the jitter keeps (almost) the whole backoff, so the waits are predictable.
  return new ReconnectPolicy(
    resolveReconnectOptions({
      timeoutMs: 10_000,
      initialDelayMs: 100,
      maxDelayMs: 400,
      ...options,
    }),
    () => clock.now,
    () => 0.999999,
  );
}

describe('ReconnectPolicy', () => {
  it('makes the first attempt at once, then doubles the wait from initialDelayMs up to maxDelayMs', () => {
    const policy = policyAt({ now: 0 });

    const delays = [1, 2, 3, 4, 5].map(() => policy.plan('dropped')!.delayMs);

    expect(delays).toEqual([0, 100, 200, 400, 400]);
  });

  it('waits at least initialDelayMs before resending an interrupted run', () => {
    expect(policyAt({ now: 0 }).plan('interrupted')).toEqual({ attempt: 1, delayMs: 100 });
  });

  it('resends an interrupted run at once when the run was read already stopped', () => {
    expect(policyAt({ now: 0 }).plan('interrupted', undefined, true)).toEqual({
      attempt: 1,
      delayMs: 0,
    });
  });

  it('waits what Retry-After says instead of the backoff', () => {
    expect(policyAt({ now: 0 }).plan('dropped', 2_000)).toEqual({ attempt: 1, delayMs: 2_000 });
  });

  it('plans nothing once the wait would pass the deadline of the outage', () => {
    const clock = { now: 0 };
    const policy = policyAt(clock);
    policy.plan('dropped');
    clock.now = 9_950;

    expect(policy.plan('dropped')).toBeUndefined();
  });

  it('starts a new outage, with a new deadline, after progress', () => {
    const clock = { now: 0 };
    const policy = policyAt(clock);
    policy.plan('dropped');
    clock.now = 20_000;
    policy.progress();

    expect(policy.plan('handover')).toEqual({ attempt: 1, delayMs: 0 });
  });

  it('says the outage expired once its deadline has passed', () => {
    const clock = { now: 0 };
    const policy = policyAt(clock);
    expect(policy.expired()).toBe(false);
    policy.plan('dropped');
    clock.now = 10_000;

    expect(policy.expired()).toBe(true);
  });

  it('limits the silence of a connection to the deadline of the outage', () => {
    const clock = { now: 0 };
    const policy = policyAt(clock, { idleTimeoutMs: 45_000 });
    expect(policy.silenceMs()).toBe(45_000);
    policy.plan('dropped');
    clock.now = 4_000;

    expect(policy.silenceMs()).toBe(6_000);
  });

  it('refuses a negative or non-numeric setting', () => {
    expect(() => resolveReconnectOptions({ timeoutMs: -1 })).toThrow(
      'reconnect.timeoutMs must be a finite number of milliseconds ≥ 0, got -1',
    );
  });
});
