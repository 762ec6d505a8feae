import type { PostgresSignalSettings } from '../options/graceful-shutdown-options.interface.js';
import type { SignalBus } from '../contracts/signal-bus.interface.js';

/** A bus the module connects at boot and closes at shutdown. */
export type ConnectableSignalBus = SignalBus & { connect(): Promise<void>; close(): Promise<void> };

/**
 * A session store that can carry signals on its own PostgreSQL database (the default TypeORM
 * store does): how `signals.postgres` gets its bus without this layer knowing the store.
 */
export interface PostgresSignalSource {
  createPostgresSignalBus(
    settings: PostgresSignalSettings & { cancelTtlMs: number },
  ): ConnectableSignalBus;
}

/** True for a store that offers a PostgreSQL signal bus. */
export function isPostgresSignalSource(store: unknown): store is PostgresSignalSource {
  return (
    typeof (store as Partial<PostgresSignalSource> | null)?.createPostgresSignalBus === 'function'
  );
}
