import { OWNED_SIGNAL_BUS } from '../tokens/graceful-shutdown.tokens';
import type { Provider } from '@nestjs/common';
import { RESOLVED_SHUTDOWN_OPTIONS } from '../tokens/graceful-shutdown.tokens';
import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options';
import { InProcessSignalBus } from './in-process-signal-bus';
import { importRedisEntry, redisConnection } from './redis-entry';
import { SIGNAL_BUS, type SignalBus } from '../contracts/signal-bus.interface';

/** A bus the module made from its options, and so connects and closes; null for a bus the host passed. */
export type OwnedSignalBus = (SignalBus & { connect?(): Promise<void>; close?(): Promise<void> }) | null;

/** The Redis bus, loaded only when `signals.redisUrl` or `signals.redisClient` is set. */
async function redisBus(options: ResolvedShutdownOptions): Promise<SignalBus> {
  return new (await importRedisEntry()).RedisSignalBus({ ...redisConnection(options), cancelTtlMs: options.cancelTtlMs });
}

/** The signal bus: the host's (`signals.bus`), else Redis (`signals.redisUrl`), else in-process. */
export const signalBusProviders: Provider[] = [
  {
    provide: OWNED_SIGNAL_BUS,
    inject: [RESOLVED_SHUTDOWN_OPTIONS],
    useFactory: async (options: ResolvedShutdownOptions): Promise<OwnedSignalBus> => {
      if (options.signalBus) return null;
      return redisConnection(options) ? redisBus(options) : new InProcessSignalBus(options.cancelTtlMs);
    },
  },
  {
    provide: SIGNAL_BUS,
    inject: [RESOLVED_SHUTDOWN_OPTIONS, OWNED_SIGNAL_BUS],
    useFactory: (options: ResolvedShutdownOptions, owned: OwnedSignalBus): SignalBus => options.signalBus ?? owned!,
  },
];

export { OWNED_SIGNAL_BUS };
