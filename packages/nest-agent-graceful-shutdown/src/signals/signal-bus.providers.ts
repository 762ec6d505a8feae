import { OWNED_SIGNAL_BUS, RESOLVED_SHUTDOWN_OPTIONS } from '../tokens/graceful-shutdown.tokens.js';
import type { Provider } from '@nestjs/common';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import { InProcessSignalBus } from './in-process-signal-bus.js';
import { importRedisEntry, redisConnection } from './redis-entry.js';
import { SIGNAL_BUS, type SignalBus } from '../contracts/signal-bus.interface.js';
import { SESSION_STORE, type SessionStore } from '../contracts/session-store.interface.js';
import { isPostgresSignalSource } from './postgres-signal-source.js';

/** A bus the module made from its options, and so connects and closes; null for a bus the host passed. */
export type OwnedSignalBus =
  (SignalBus & { connect?(): Promise<void>; close?(): Promise<void> }) | null;

/** The Redis bus, loaded only when `signals.redisUrl` or `signals.redisClient` is set. */
async function redisBus(options: ResolvedShutdownOptions): Promise<SignalBus> {
  return new (await importRedisEntry()).RedisSignalBus({
    ...redisConnection(options),
    cancelTtlMs: options.cancelTtlMs,
  });
}

/** The PostgreSQL bus of `signals.postgres`, on the session store's database. */
function postgresBus(options: ResolvedShutdownOptions, store: SessionStore): SignalBus {
  if (!isPostgresSignalSource(store)) {
    throw new TypeError(
      'signals.postgres needs the default TypeORM session store on PostgreSQL: pass signals.bus for a store of your own',
    );
  }
  return store.createPostgresSignalBus({
    ...options.postgresSignals,
    cancelTtlMs: options.cancelTtlMs,
  });
}

/**
 * The signal bus: the host's (`signals.bus`), else PostgreSQL (`signals.postgres`), else Redis
 * (`signals.redisUrl` or `signals.redisClient`), else in-process.
 */
export const signalBusProviders: Provider[] = [
  {
    provide: OWNED_SIGNAL_BUS,
    inject: [RESOLVED_SHUTDOWN_OPTIONS, SESSION_STORE],
    useFactory: async (
      options: ResolvedShutdownOptions,
      store: SessionStore,
    ): Promise<OwnedSignalBus> => {
      if (options.signalBus) return null;
      if (options.postgresSignals) return postgresBus(options, store);
      return redisConnection(options)
        ? redisBus(options)
        : new InProcessSignalBus(options.cancelTtlMs);
    },
  },
  {
    provide: SIGNAL_BUS,
    inject: [RESOLVED_SHUTDOWN_OPTIONS, OWNED_SIGNAL_BUS],
    useFactory: (options: ResolvedShutdownOptions, owned: OwnedSignalBus): SignalBus =>
      options.signalBus ?? owned!,
  },
];

export { OWNED_SIGNAL_BUS };
