import {
  OWNED_RUN_EVENT_LOG,
  RESOLVED_SHUTDOWN_OPTIONS,
} from '../tokens/graceful-shutdown.tokens.js';
import type { Provider } from '@nestjs/common';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import { SESSION_STORE, type SessionStore } from '../contracts/session-store.interface.js';
import { TypeOrmSessionStore } from '../typeorm-store/typeorm-session.store.js';
import { importRedisEntry, redisConnection } from '../signals/redis-entry.js';
import { InMemoryRunEventLog } from './in-memory-run-event-log.js';
import { carriesLogNudges } from '../postgres-signals/log-nudges.js';
import { SIGNAL_BUS, type SignalBus } from '../contracts/signal-bus.interface.js';
import { RUN_EVENT_LOG, type RunEventLog } from '../contracts/run-event-log.interface.js';

/** A log the module made from its options, and so connects and closes; null for a log the host passed. */
export type OwnedRunEventLog =
  (RunEventLog & { connect?(): Promise<void>; close?(): Promise<void> }) | null;

/** The Redis log, loaded only when `signals.redisUrl` or `signals.redisClient` is set. */
async function redisLog(options: ResolvedShutdownOptions): Promise<RunEventLog> {
  return new (await importRedisEntry()).RedisRunEventLog({ ...redisConnection(options) });
}

/**
 * The run event log: the host's (`streams.log`), else Redis Streams (`signals.redisUrl`), else
 * the session database (with the default store; woken across instances by the PostgreSQL bus), else process memory.
 */
export const runEventLogProviders: Provider[] = [
  {
    provide: OWNED_RUN_EVENT_LOG,
    inject: [RESOLVED_SHUTDOWN_OPTIONS, SESSION_STORE, SIGNAL_BUS],
    useFactory: async (
      options: ResolvedShutdownOptions,
      store: SessionStore,
      bus: SignalBus,
    ): Promise<OwnedRunEventLog> => {
      if (options.eventLog) return null;
      if (redisConnection(options)) return redisLog(options);
      // The PostgreSQL bus wakes the followers of a run on other instances when its log grows.
      return store instanceof TypeOrmSessionStore
        ? store.createRunEventLog(carriesLogNudges(bus) ? bus : undefined)
        : new InMemoryRunEventLog();
    },
  },
  {
    provide: RUN_EVENT_LOG,
    inject: [RESOLVED_SHUTDOWN_OPTIONS, OWNED_RUN_EVENT_LOG],
    useFactory: (options: ResolvedShutdownOptions, owned: OwnedRunEventLog): RunEventLog =>
      options.eventLog ?? owned!,
  },
];

export { OWNED_RUN_EVENT_LOG };
