import Redis, { Cluster, type RedisOptions } from 'ioredis';

/** How long one count may wait for Redis before this instance counts by itself, in milliseconds. */
const REDIS_COMMAND_TIMEOUT_MS = 200;

/** Fail fast, never queue: a count never waits for a reconnect. */
const NODE_OPTIONS: RedisOptions = {
  maxRetriesPerRequest: 1,
  commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  connectTimeout: 2_000,
};

/** Reconnect forever, at most 2 s apart, so a restarted Redis is used again quickly. */
const reconnectDelay = (times: number) => Math.min(times * 200, 2_000);

/**
 * The rate limiter's own Redis connection: to the server of `url`, or with `cluster`, to the
 * Redis Cluster `url` is a seed node of (the counters' keys are hash-tagged per user by the
 * storage, so each count is one slot). `url` may hold a password: never log it.
 */
export function openRateLimitRedis(url: string, cluster: boolean): Redis | Cluster {
  if (!cluster)
    return new Redis(url, {
      ...NODE_OPTIONS,
      enableOfflineQueue: false,
      retryStrategy: reconnectDelay,
    });
  const seed = new URL(url);
  return new Cluster(
    [{ host: seed.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(seed.port || 6379) }],
    {
      enableOfflineQueue: false,
      clusterRetryStrategy: reconnectDelay,
      // With TLS the seed keeps its host name, which its certificate names (e.g. ElastiCache's configuration endpoint).
      ...(seed.protocol === 'rediss:'
        ? {
            dnsLookup: (address: string, callback: (error: null, address: string) => void) =>
              callback(null, address),
          }
        : {}),
      redisOptions: {
        ...NODE_OPTIONS,
        ...(seed.username ? { username: decodeURIComponent(seed.username) } : {}),
        ...(seed.password ? { password: decodeURIComponent(seed.password) } : {}),
        ...(seed.protocol === 'rediss:' ? { tls: {} } : {}),
      },
    },
  );
}
