import type { ResolvedShutdownOptions } from '../options/resolve-shutdown-options.js';
import type { RedisClient, RedisConnectionOptions } from '../redis/redis-connection.js';

/**
 * Where the module's Redis bus and log connect, from `signals.redisUrl`, `signals.redisCluster`
 * and `signals.redisClient`; `undefined` without Redis.
 */
export function redisConnection(
  options: Pick<ResolvedShutdownOptions, 'redisUrl' | 'redisCluster' | 'redisClient'>,
): RedisConnectionOptions | undefined {
  if (options.redisClient) return { client: options.redisClient as unknown as RedisClient };
  return options.redisUrl ? { url: options.redisUrl, cluster: options.redisCluster } : undefined;
}

/**
 * The `/redis` entry, loaded only when `signals.redisUrl` is set: `ioredis` is an optional
 * peer, so the root entry must not import it.
 */
export async function importRedisEntry(): Promise<typeof import('../redis/index.js')> {
  try {
    return await import('../redis/index.js');
  } catch (error) {
    throw new Error(
      `signals.redisUrl needs the optional peer dependency ioredis: npm install ioredis (${(error as Error).message})`,
    );
  }
}
