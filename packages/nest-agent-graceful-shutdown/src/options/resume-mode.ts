import type { ResolvedShutdownOptions } from './resolve-shutdown-options.js';
import type { SessionStore } from '../contracts/session-store.interface.js';
import type { SignalBus } from '../contracts/signal-bus.interface.js';

/** Who continues an interrupted run: its client's retry, or any live instance at once. */
export type ResumeMode = 'client' | 'auto';

/**
 * The resume mode in force: the configured one, else `auto` when several instances can share
 * the work (a store that is not an embedded file, and signals through Redis or PostgreSQL), else `client`.
 */
export function resolveResumeMode(
  options: Pick<ResolvedShutdownOptions, 'resumeMode' | 'redisUrl' | 'postgresSignals'>,
  store: SessionStore,
  bus: SignalBus,
): ResumeMode {
  if (options.resumeMode) return options.resumeMode;
  const shared = store.isExclusive?.() !== true;
  const transport = bus.health?.().transport;
  const crossInstance =
    options.redisUrl !== undefined ||
    options.postgresSignals !== undefined ||
    transport === 'redis' ||
    transport === 'postgres';
  return shared && crossInstance ? 'auto' : 'client';
}
