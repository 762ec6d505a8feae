import { Redis, Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';

/** A standalone Redis or a Redis Cluster client: the commands the bus and the log send exist on both. */
export type RedisClient = Redis | Cluster;

/** Where the bus or the log finds Redis: a URL (of the server, or of one seed node of a cluster), or a client to copy. */
export interface RedisConnectionOptions {
  /**
   * Redis URL, e.g. `redis://:secret@redis:6379/0`; with `cluster`, any one node of the
   * cluster (the others are discovered). Never logged: it may hold a password.
   */
  url?: string;
  /**
   * `url` names a seed node of a Redis Cluster: keys are hash-tagged per run and follows are
   * grouped by slot.
   * @default false
   */
  cluster?: boolean;
  /**
   * An ioredis `Redis` or `Cluster` whose settings (nodes, password, TLS) the connections copy
   * with `duplicate()`; takes the place of `url`. It stays yours: it is never used nor closed.
   */
  client?: RedisClient;
}

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

/** The same behaviour for a cluster client, whose node connections take the rest of the settings. */
const SIGNAL_CLUSTER_OPTIONS: Readonly<ClusterOptions> = {
  lazyConnect: true,
  enableOfflineQueue: false,
  clusterRetryStrategy: (times) => Math.min(times * 200, 2_000),
  // A failover moves slots: commands wait this long between their retries while it happens.
  retryDelayOnFailover: 200,
  retryDelayOnClusterDown: 200,
  slotsRefreshTimeout: 2_000,
};

/** Whether the connections these options describe are to a Redis Cluster. */
export function isClusterConnection(options: RedisConnectionOptions): boolean {
  return options.client ? options.client.isCluster : options.cluster === true;
}

/**
 * Opens (lazily) a connection for the bus or the log: a standalone `Redis` or a `Cluster`, as
 * the options say. `overrides` are standalone connection settings; on a cluster they apply
 * to each node connection. The URL may hold a password: never log it.
 */
export function openSignalRedis(
  options: RedisConnectionOptions,
  overrides: RedisOptions = {},
): RedisClient {
  const { client, url } = options;
  if (client && url) throw new TypeError('give Redis either a url or a client, not both');
  const nodeOptions = nodeSettings(overrides);
  if (client?.isCluster) {
    const cluster = client as Cluster;
    return cluster.duplicate([], {
      ...SIGNAL_CLUSTER_OPTIONS,
      redisOptions: { ...cluster.options.redisOptions, ...nodeOptions },
    });
  }
  if (client) return (client as Redis).duplicate({ ...SIGNAL_REDIS_OPTIONS, ...overrides });
  if (!url) throw new TypeError('Redis needs a url (redis://…) or a client');
  if (!options.cluster) return createSignalRedis(url, overrides);
  const seed = seedNode(url);
  return new Cluster([{ host: seed.host, port: seed.port }], {
    ...SIGNAL_CLUSTER_OPTIONS,
    // With TLS the seed keeps its host name, which its certificate names (e.g. ElastiCache's configuration endpoint).
    ...(seed.auth.tls ? { dnsLookup: keepHostName } : {}),
    redisOptions: { ...seed.auth, ...nodeOptions },
  });
}

/** Opens (lazily) a standalone connection for the bus. `url` may hold a password: never log it. */
export function createSignalRedis(url: string, overrides: RedisOptions = {}): Redis {
  return new Redis(url, { ...SIGNAL_REDIS_OPTIONS, ...overrides });
}

/** Quits politely when connected; otherwise drops the connection and stops its reconnects. */
export async function quitSignalRedis(connection: {
  status: string;
  quit(): Promise<unknown>;
  disconnect(): void;
}): Promise<void> {
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

/** A DNS lookup that answers the name itself, so a TLS connection checks the certificate against it. */
function keepHostName(address: string, callback: (error: null, address: string) => void): void {
  callback(null, address);
}

/** The settings of one node connection of a cluster: those a cluster client does not set itself. */
function nodeSettings(overrides: RedisOptions): NonNullable<ClusterOptions['redisOptions']> {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { lazyConnect, enableOfflineQueue, retryStrategy, ...node } = {
    ...SIGNAL_REDIS_OPTIONS,
    ...overrides,
  };
  return node;
}

/** A seed node's address, and the password, user and TLS every node of its cluster takes. */
function seedNode(url: string): { host: string; port: number; auth: RedisOptions } {
  const parsed = new URL(url);
  const auth: RedisOptions = {};
  if (parsed.username) auth.username = decodeURIComponent(parsed.username);
  if (parsed.password) auth.password = decodeURIComponent(parsed.password);
  if (parsed.protocol === 'rediss:') auth.tls = {};
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(parsed.port || 6379),
    auth,
  };
}
