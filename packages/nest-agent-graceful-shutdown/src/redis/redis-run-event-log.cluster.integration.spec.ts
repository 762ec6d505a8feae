import { Cluster } from 'ioredis';
import { ensureLocalServicePackages, RedisCluster, redisCli, waitFor } from 'dev-services';
import { RecordingLogger } from './recording-logger.fixtures.js';
import { describeRunEventLogContract } from '../testing/run-event-log.contract.js';
import { freshRun, loggedEvents, RecordingListener } from '../testing/run-event-log-probes.js';
import { redisKeySlot } from './redis-key-slot.js';
import { RedisRunEventLog, type RedisRunEventLogOptions } from './redis-run-event-log.js';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';

/** The first run may install redis-server with apt, which takes minutes. */
const INSTALL_TIMEOUT_MS = 300_000;

let cluster: RedisCluster;
let testCount = 0;
const logs: RedisRunEventLog[] = [];

/** A connected log on the cluster, with keys of its own test. */
async function openLog(options: Partial<RedisRunEventLogOptions> = {}): Promise<RedisRunEventLog> {
  const connection = options.client ? {} : { url: cluster.url, cluster: true };
  const log = new RedisRunEventLog({
    ...connection,
    keyPrefix: `test-${++testCount}:`,
    logger: new RecordingLogger(),
    ...options,
  });
  logs.push(log);
  await log.connect();
  return log;
}

beforeAll(async () => {
  await ensureLocalServicePackages();
  cluster = await RedisCluster.start();
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await cluster?.destroy();
});

describeRunEventLogContract('RedisRunEventLog on a Redis Cluster', async () => {
  const log = await openLog();
  return { log, dispose: () => log.close() };
});

describe('RedisRunEventLog on a Redis Cluster', () => {
  let admin: Cluster;
  const follows: Unsubscribe[] = [];

  /** Connections the cluster's nodes hold, over all of them. */
  async function clients(): Promise<number> {
    const lists = await Promise.all(
      cluster.nodes.map((node) => redisCli(node.port, 'CLIENT', 'LIST')),
    );
    return lists.reduce((sum, list) => sum + list.trim().split('\n').length, 0);
  }

  beforeAll(() => {
    admin = new Cluster([cluster.url]);
  });

  afterEach(async () => {
    follows.splice(0).forEach((unsubscribe) => unsubscribe());
    await Promise.all(logs.splice(0).map((log) => log.close()));
  });

  afterAll(() => admin?.disconnect());

  it('keeps a run’s stream and writer key in one slot, under a hash tag of its ids', async () => {
    const log = await openLog();
    const run = { threadId: 'thread:1', runId: 'run{1}' };

    await log.claim(run, 'attempt-1');
    await log.append(run, loggedEvents(1, 2), 'attempt-1');

    const [stream, writer] = [
      `test-${testCount}:log:{thread%3A1:run%7B1%7D}`,
      `test-${testCount}:log-writer:{thread%3A1:run%7B1%7D}`,
    ];
    expect(await admin.type(stream)).toBe('stream');
    expect(await admin.get(writer)).toBe('attempt-1');
    expect(redisKeySlot(stream)).toBe(redisKeySlot(writer));
  });

  it('follows runs of many slots on the connections it already holds, one per node', async () => {
    const log = await openLog();
    // Runs on every master, so the log holds its connection to each.
    const early = Array.from({ length: 20 }, () => freshRun());
    const firsts = early.map(() => new RecordingListener());
    early.forEach((each, index) => follows.push(log.follow(each, 0, firsts[index])));
    await Promise.all(early.map((each) => log.append(each, loggedEvents(1, 1))));
    await waitFor(
      () => firsts.every((listener) => listener.received.length === 1),
      'the first followers',
    );
    const withTwenty = await clients();

    const runs = Array.from({ length: 200 }, () => freshRun());
    const listeners = runs.map(() => new RecordingListener());
    runs.forEach((each, index) => follows.push(log.follow(each, 0, listeners[index])));
    await Promise.all(
      runs.map((each, index) => log.append(each, loggedEvents(1, 1 + (index % 3)))),
    );

    await waitFor(
      () => listeners.every((listener, index) => listener.received.length === 1 + (index % 3)),
      'every follower',
    );
    expect(
      new Set(runs.map((each) => redisKeySlot(`log:{${each.threadId}:${each.runId}}`))).size,
    ).toBeGreaterThan(100);
    // Connections of earlier tests may still be on their way out: the count can only drop.
    expect(await clients()).toBeLessThanOrEqual(withTwenty);
  });

  it('works through connections copied from an ioredis Cluster, which it leaves open', async () => {
    const client = new Cluster([cluster.url]);
    const log = await openLog({ client });
    const run = freshRun();
    const listener = new RecordingListener();
    follows.push(log.follow(run, 0, listener));

    await log.append(run, loggedEvents(1, 3));

    await waitFor(() => listener.received.length === 3, 'the events');
    await log.close();
    expect(await client.ping()).toBe('PONG');
    client.disconnect();
  });

  it('refuses a key prefix with braces, which would change the hash tag', () => {
    expect(
      () => new RedisRunEventLog({ url: cluster.url, cluster: true, keyPrefix: '{agents}:' }),
    ).toThrow(/braces/);
  });
});
