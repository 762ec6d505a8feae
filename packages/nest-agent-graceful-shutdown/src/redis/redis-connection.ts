import Redis, { type RedisOptions } from 'ioredis';

/**
 * How the signal bus's connections behave when Redis is slow or gone: commands fail fast,
 * so a cancel is never held up by Redis, and the connection keeps coming back on its own.
 */
export const SIGNAL_REDIS_OPTIONS: Readonly<RedisOptions> = {
  // Construction and boot must not fail on a down Redis; the bus starts the connection.
  lazyConnect: true,
  // A command issued while disconnected fails at once instead of waiting for a later replay.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  // Reconnect forever, at most 2 s apart, so a restarted Redis is found again quickly.
  retryStrategy: (times) => Math.min(times * 200, 2_000),
  connectTimeout: 2_000,
  // A hung Redis must not hold a cancel request for long.
  commandTimeout: 2_000,
  // Finds a dead peer at the TCP level, without sending commands while idle.
  keepAlive: 10_000,
};

/** Opens (lazily) a connection for the bus. `url` may hold a password: never log it. */
export function createSignalRedis(url: string, overrides: RedisOptions = {}): Redis {
  return new Redis(url, { ...SIGNAL_REDIS_OPTIONS, ...overrides });
}

/** Quits politely when connected; otherwise drops the connection and stops its reconnects. */
export async function quitSignalRedis(connection: Redis): Promise<void> {
  if (connection.status === 'ready') {
    try {
      await connection.quit();
      return;
    } catch {
      // Falls through to a hard disconnect.
    }
  }
  connection.disconnect();
}
