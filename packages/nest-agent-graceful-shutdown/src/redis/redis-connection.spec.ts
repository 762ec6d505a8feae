import { Redis, Cluster } from 'ioredis';
import { isClusterConnection, openSignalRedis } from './redis-connection.js';

describe('openSignalRedis', () => {
  const opened: (Redis | Cluster)[] = [];
  const open = (...args: Parameters<typeof openSignalRedis>) => {
    const client = openSignalRedis(...args);
    opened.push(client);
    return client;
  };

  afterEach(() => opened.splice(0).forEach((client) => client.disconnect()));

  it('opens a standalone connection lazily, failing fast while disconnected', () => {
    const client = open({ url: 'redis://127.0.0.1:1' }) as Redis;

    expect(client.isCluster).toBe(false);
    expect(client.status).toBe('wait');
    expect(client.options).toMatchObject({
      lazyConnect: true,
      enableOfflineQueue: false,
      commandTimeout: 2_000,
    });
  });

  it('opens a cluster client from a seed URL, its password and user for every node', () => {
    const client = open(
      { url: 'redis://app:s%40cret@node-1:7000', cluster: true },
      { autoResubscribe: false },
    ) as Cluster;

    expect(client.isCluster).toBe(true);
    expect(client.status).toBe('wait');
    expect(client.options).toMatchObject({ lazyConnect: true, enableOfflineQueue: false });
    expect(client.options.redisOptions).toMatchObject({
      username: 'app',
      password: 's@cret',
      commandTimeout: 2_000,
      autoResubscribe: false,
    });
    expect(client.options.redisOptions).not.toHaveProperty('lazyConnect');
  });

  it('keeps the seed’s host name for TLS, which its certificate names', () => {
    const client = open({ url: 'rediss://clustercfg.example.com:6379', cluster: true }) as Cluster;
    const resolved: string[] = [];

    client.options.dnsLookup!('clustercfg.example.com', (_, address) => resolved.push(address));

    expect(client.options.redisOptions).toMatchObject({ tls: {} });
    expect(resolved).toEqual(['clustercfg.example.com']);
  });

  it('copies a client given, cluster or not, with its own fail-fast settings', () => {
    const cluster = new Cluster([{ host: 'node-1', port: 7000 }], {
      lazyConnect: true,
      redisOptions: { password: 'pw' },
    });
    const single = new Redis({ host: 'redis', lazyConnect: true, password: 'pw' });
    opened.push(cluster, single);

    const fromCluster = open({ client: cluster }) as Cluster;
    const fromSingle = open({ client: single }) as Redis;

    expect(fromCluster).not.toBe(cluster);
    expect(fromCluster.isCluster).toBe(true);
    expect(fromCluster.options.redisOptions).toMatchObject({
      password: 'pw',
      commandTimeout: 2_000,
    });
    expect(fromSingle.options).toMatchObject({
      host: 'redis',
      password: 'pw',
      enableOfflineQueue: false,
    });
    expect([
      isClusterConnection({ client: cluster }),
      isClusterConnection({ client: single }),
      isClusterConnection({ url: 'redis://a' }),
    ]).toEqual([true, false, false]);
  });

  it('refuses both a url and a client, and neither', () => {
    const client = new Redis({ lazyConnect: true });
    opened.push(client);

    expect(() => openSignalRedis({ url: 'redis://a', client })).toThrow(/either a url or a client/);
    expect(() => openSignalRedis({})).toThrow(/needs a url/);
  });
});
