import { Cluster } from 'ioredis';
import { ensureLocalServicePackages } from './debian-packages';
import { RedisCluster } from './redis-cluster';

/** The first run installs the packages with apt, which takes minutes. */
const INSTALL_TIMEOUT_MS = 300_000;

describe('RedisCluster', () => {
  let cluster: RedisCluster;
  let client: Cluster;

  beforeAll(async () => {
    await ensureLocalServicePackages();
    cluster = await RedisCluster.start();
  }, INSTALL_TIMEOUT_MS);

  afterAll(async () => {
    client?.disconnect();
    await cluster?.destroy();
  });

  it('serves keys of every slot to an ioredis Cluster client through one seed node', async () => {
    client = new Cluster([cluster.url], { enableOfflineQueue: true });
    const keys = Array.from({ length: 30 }, (_, index) => `key-${index}`);

    await Promise.all(keys.map((key) => client.set(key, key)));

    expect(await Promise.all(keys.map((key) => client.get(key)))).toEqual(keys);
  });

  it('promotes the replica of a killed master, and keeps what was replicated', async () => {
    const master = await cluster.masterOf('kept');
    await client.set('kept', 'yes');
    await client.wait(1, 5_000);

    const promoted = await cluster.killMaster(master);

    expect(promoted.port).not.toBe(master.port);
    expect(await cluster.masterOf('kept')).toBe(promoted);
    expect(await client.get('kept')).toBe('yes');
  });
});
