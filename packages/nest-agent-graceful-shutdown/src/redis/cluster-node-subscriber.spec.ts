import { Cluster } from 'ioredis';
import { ClusterNodeSubscriber } from './cluster-node-subscriber.js';

describe('ClusterNodeSubscriber', () => {
  it('waits once for the cluster client’s nodes, however often it is asked to connect', async () => {
    const cluster = new Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true });
    const subscriber = new ClusterNodeSubscriber(cluster);
    const waitersBefore = cluster.listenerCount('ready');

    await subscriber.connect();
    await subscriber.connect();

    expect(cluster.listenerCount('ready') - waitersBefore).toBe(1);
    expect(subscriber.status).toBe('wait');
    await subscriber.quit();
    cluster.disconnect();
  });
});
