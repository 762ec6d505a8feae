import type { Unsubscribe } from '../contracts/signal-bus.interface.js';
import type { LogAppendedSignal } from './postgres-signal-wire.js';

/**
 * Carries "this run's log grew" between instances, so a stream joined on one instance reads
 * the SQL log at once when another appends, instead of at its next liveness check. The
 * PostgreSQL signal bus is one: a `NOTIFY` per append batch, ids only.
 */
export interface LogNudges {
  /** Announces the runs whose logs an append batch grew. Best effort: must not throw. */
  publishLogAppended(signals: readonly LogAppendedSignal[]): Promise<void>;
  /** Listens for the nudges of every run, from every instance. */
  onLogAppended(handler: (signal: LogAppendedSignal) => void): Unsubscribe;
}

/** True for a signal bus that also carries log nudges. */
export function carriesLogNudges(bus: unknown): bus is LogNudges {
  const candidate = bus as Partial<LogNudges> | null;
  return (
    typeof candidate?.publishLogAppended === 'function' &&
    typeof candidate.onLogAppended === 'function'
  );
}
