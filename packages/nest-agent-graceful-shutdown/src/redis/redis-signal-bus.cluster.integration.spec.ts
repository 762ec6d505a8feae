import { Cluster } from 'ioredis';
import { ensureLocalServicePackages, RedisCluster, redisCli, waitFor } from 'dev-services';
import { RecordingLogger } from './recording-logger.fixtures.js';
import { RedisSignalBus, type RedisSignalBusOptions } from './redis-signal-bus.js';
import type { RunEndedSignal } from '../contracts/signal-bus.interface.js';
import { describeSignalBusContract } from '../testing/signal-bus.contract.js';

/** The first run may install redis-server with apt, which takes minutes. */
const INSTALL_TIMEOUT_MS = 300_000;

describe('RedisSignalBus on a Redis Cluster', () => {
  let cluster: RedisCluster;
  let admin: Cluster;
  let prefix: string;
  let testCount = 0;
  const buses: RedisSignalBus[] = [];

  /** A connected bus playing one instance; keys and channels are this test's own. */
  async function instance(options: Partial<RedisSignalBusOptions> = {}): Promise<RedisSignalBus> {
    const connection = options.client ? {} : { url: cluster.url, cluster: true };
    const bus = new RedisSignalBus({
      ...connection,
      keyPrefix: prefix,
      logger: new RecordingLogger(),
      ...options,
    });
    buses.push(bus);
    await bus.connect();
    return bus;
  }

  let markers = 0;
  /** Publishes a cancel of a fresh run on `from` and waits until `to` hears it, and so all published before. */
  async function drain(from: RedisSignalBus, to: RedisSignalBus): Promise<void> {
    let heard = false;
    const run = { threadId: 'marker', runId: `m-${++markers}` };
    const stop = to.onCancel(run.threadId, run.runId, () => (heard = true));
    await from.publishCancel(run);
    await waitFor(() => heard, 'the marker cancel');
    stop();
  }

  /** Drops every subscriber connection of every node, as a network fault would. */
  async function killSubscribers(): Promise<void> {
    await Promise.all(
      cluster.nodes.map((node) => redisCli(node.port, 'CLIENT', 'KILL', 'TYPE', 'pubsub')),
    );
  }

  /** Subscribers of `channel` over every node (each node counts its own). */
  async function subscribers(channel: string): Promise<number> {
    const counts = await Promise.all(
      cluster.nodes.map((node) => redisCli(node.port, 'PUBSUB', 'NUMSUB', channel)),
    );
    return counts.reduce((sum, reply) => sum + Number(reply.trim().split('\n')[1]), 0);
  }

  beforeAll(async () => {
    await ensureLocalServicePackages();
    cluster = await RedisCluster.start();
    admin = new Cluster([cluster.url]);
  }, INSTALL_TIMEOUT_MS);

  beforeEach(() => {
    prefix = `test-${++testCount}:`;
  });

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });

  afterAll(async () => {
    admin?.disconnect();
    await cluster?.destroy();
  });

  // The contract every bus keeps (cancels across instances, late subscribers, run ends), on the cluster.
  describeSignalBusContract('RedisSignalBus on a Redis Cluster', async () => {
    prefix = `contract-${++testCount}:`;
    return {
      instances: (count) => Promise.all(Array.from({ length: count }, () => instance())),
      dispose: async () => void (await Promise.all(buses.splice(0).map((bus) => bus.close()))),
    };
  });

  it('keeps a cancel under a hash tag of the run’s ids, in the slot of the run’s log', async () => {
    const [a, b] = [await instance(), await instance()];
    a.onCancel('t:1', 'r1', () => undefined);

    await b.publishCancel({ threadId: 't:1', runId: 'r1' });

    expect(await admin.exists(`${prefix}cancel:{t%3A1:r1}`)).toBe(1);
    expect(await admin.cluster('KEYSLOT', `${prefix}cancel:{t%3A1:r1}`)).toBe(
      await admin.cluster('KEYSLOT', `${prefix}log:{t%3A1:r1}`),
    );
  });

  it('delivers cancels published while the subscriber connections were down, once it re-syncs runs of many slots', async () => {
    const [a, b] = [await instance(), await instance()];
    const runs = Array.from({ length: 600 }, (_, index) => ({
      threadId: 'load',
      runId: `run-${index}`,
    }));
    const cancelled = new Set<string>();
    for (const run of runs) a.onCancel(run.threadId, run.runId, () => cancelled.add(run.runId));

    await killSubscribers();
    // Reconnects wait 200 ms, so nobody hears these: only the keys carry them.
    expect(await subscribers(`${prefix}cancel`)).toBe(0);
    await Promise.all([runs[7], runs[599]].map((run) => b.publishCancel(run)));

    await waitFor(
      () => cancelled.has('run-7') && cancelled.has('run-599'),
      'the re-synced cancels on A',
      20_000,
    );
    await waitFor(() => a.health().connected, 'A to be connected');
  });

  it('delivers a run-ended notice to a waiter on another instance and forgets the run’s cancel', async () => {
    const [a, b] = [await instance(), await instance()];
    const run = { threadId: 't1', runId: 'r1' };
    a.onCancel(run.threadId, run.runId, () => undefined);
    await b.publishCancel(run);
    const seen: RunEndedSignal[] = [];
    b.onRunEnded(run.threadId, run.runId, (signal) => seen.push(signal));
    const ended: RunEndedSignal = { ...run, status: 'canceled', stopReason: 'canceled' };

    await a.publishRunEnded(ended);

    await waitFor(() => seen.length === 1, 'the notice on B');
    expect(seen).toEqual([ended]);
    let retried = 0;
    a.onCancel(run.threadId, run.runId, () => retried++);
    b.onCancel(run.threadId, run.runId, () => retried++);
    await drain(b, a);
    await drain(a, b);
    expect(retried).toBe(0);
    expect(await admin.exists(`${prefix}cancel:{t1:r1}`)).toBe(0);
  });

  it('works through connections copied from an ioredis Cluster, which it leaves open', async () => {
    const client = new Cluster([cluster.url]);
    const [a, b] = [await instance({ client }), await instance()];
    let cancels = 0;
    a.onCancel('t1', 'r1', () => cancels++);

    await b.publishCancel({ threadId: 't1', runId: 'r1' });

    await waitFor(() => cancels === 1, 'the cancel on A');
    await a.close();
    expect(await client.ping()).toBe('PONG');
    client.disconnect();
  });
});
