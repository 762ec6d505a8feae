import type { SessionStore } from '../contracts/session-store.interface.js';
import type { SignalBus, SignalBusHealth } from '../contracts/signal-bus.interface.js';
import { resolveResumeMode } from './resume-mode.js';

const sharedStore = { isExclusive: () => false } as SessionStore;
const embeddedStore = { isExclusive: () => true } as SessionStore;
const busOn = (transport: SignalBusHealth['transport']) =>
  ({ health: () => ({ transport, connected: true }) }) as SignalBus;

describe('resolveResumeMode', () => {
  it('is auto with a shared store and signals through PostgreSQL alone', () => {
    expect(resolveResumeMode({ postgresSignals: {} }, sharedStore, busOn('postgres'))).toBe('auto');
    // Either tells: the option, or the bus's health.
    expect(resolveResumeMode({ postgresSignals: {} }, sharedStore, {} as SignalBus)).toBe('auto');
    expect(resolveResumeMode({}, sharedStore, busOn('postgres'))).toBe('auto');
  });

  it('is auto with a shared store and signals through Redis', () => {
    expect(resolveResumeMode({ redisUrl: 'redis://cache:6379' }, sharedStore, busOn('redis'))).toBe(
      'auto',
    );
  });

  it('is client with in-process signals or an embedded store', () => {
    expect(resolveResumeMode({}, sharedStore, busOn('in-process'))).toBe('client');
    expect(resolveResumeMode({ postgresSignals: {} }, embeddedStore, busOn('postgres'))).toBe(
      'client',
    );
  });

  it('keeps a configured mode', () => {
    expect(resolveResumeMode({ resumeMode: 'client' }, sharedStore, busOn('postgres'))).toBe(
      'client',
    );
  });
});
