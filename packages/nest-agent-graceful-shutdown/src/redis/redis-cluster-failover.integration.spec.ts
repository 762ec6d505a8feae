import { Cluster } from 'ioredis';
import { ensureLocalServicePackages, RedisCluster, redisCli, waitFor } from 'dev-services';
import { RecordingLogger } from './recording-logger.fixtures.js';
import {
  freshRun,
  idsOf,
  loggedEvents,
  RecordingListener,
} from '../testing/run-event-log-probes.js';
import { RedisRunEventLog } from './redis-run-event-log.js';
import { RedisSignalBus } from './redis-signal-bus.js';
import type { RunLogKey } from '../contracts/run-event-log.interface.js';
import type { RunEndedSignal, Unsubscribe } from '../contracts/signal-bus.interface.js';

/** The first run may install redis-server with apt, which takes minutes. */
const INSTALL_TIMEOUT_MS = 300_000;
/** How long one append may be retried while its slot has no master, in ms. */
const APPEND_DEADLINE_MS = 30_000;
const PREFIX = 'failover:';

/**
 * A master of the cluster is killed while runs stream from one instance to another: the runs of
 * its slots wait for its replica's promotion, the others go on, and afterwards every follower
 * has every event once and in order, the logs hold every event (all were replicated before the
 * kill or written after it), and signals cross instances again.
 */
describe('RedisSignalBus and RedisRunEventLog through a Redis Cluster failover', () => {
  let cluster: RedisCluster;
  const closing: { close(): Promise<void> }[] = [];
  const follows: Unsubscribe[] = [];

  function open<T extends { connect(): Promise<void>; close(): Promise<void> }>(
    client: T,
  ): Promise<T> {
    closing.push(client);
    return client.connect().then(() => client);
  }
  const log = () =>
    open(
      new RedisRunEventLog({
        url: cluster.url,
        cluster: true,
        keyPrefix: PREFIX,
        logger: new RecordingLogger(),
      }),
    );
  const bus = () =>
    open(
      new RedisSignalBus({
        url: cluster.url,
        cluster: true,
        keyPrefix: PREFIX,
        logger: new RecordingLogger(),
      }),
    );

  /** Appends events `from`…`to` one by one, each retried until the cluster takes it, as the event channel does. */
  async function stream(
    writer: RedisRunEventLog,
    run: RunLogKey,
    from: number,
    to: number,
  ): Promise<void> {
    for (let id = from; id <= to; id++) {
      await waitFor(
        () => writer.append(run, loggedEvents(id, id)).then(() => true),
        `event ${id} of ${run.runId}`,
        APPEND_DEADLINE_MS,
        50,
      );
    }
  }

  beforeAll(async () => {
    await ensureLocalServicePackages();
    cluster = await RedisCluster.start();
  }, INSTALL_TIMEOUT_MS);

  afterAll(async () => {
    follows.splice(0).forEach((unsubscribe) => unsubscribe());
    await Promise.all(closing.splice(0).map((client) => client.close()));
    await cluster?.destroy();
  });

  it('keeps streaming runs and crossing signals while a master is replaced by its replica, losing no event', async () => {
    const [writer, reader, a, b] = [await log(), await log(), await bus(), await bus()];
    const runs = Array.from({ length: 12 }, () => freshRun());
    const listeners = runs.map(() => new RecordingListener());
    runs.forEach((run, index) => follows.push(reader.follow(run, 0, listeners[index])));
    await Promise.all(runs.map((run) => stream(writer, run, 1, 5)));
    await waitFor(
      () => listeners.every((listener) => listener.received.length === 5),
      'the events before the failover',
    );
    const master = await cluster.masterOf(
      `${PREFIX}log:{${encodeURIComponent(runs[0].threadId)}:${encodeURIComponent(runs[0].runId)}}`,
    );
    await cluster.waitReplicated();

    const failover = cluster.killMaster(master);
    await waitFor(() => !master.running, 'the master to be killed');
    const streaming = Promise.all(runs.map((run) => stream(writer, run, 6, 15)));
    const promoted = await failover;
    await streaming;

    await waitFor(
      () => listeners.every((listener) => listener.received.length === 15),
      'every event at every follower',
      20_000,
    );
    const expected = Array.from({ length: 15 }, (_, index) => index + 1);
    expect(listeners.map((listener) => listener.ids)).toEqual(runs.map(() => expected));
    const fresh = await log();
    expect(
      await Promise.all(runs.map(async (run) => idsOf(await fresh.read(run, 0, 100)))),
    ).toEqual(runs.map(() => expected));
    expect(promoted.port).not.toBe(master.port);

    const run = runs[0];
    let cancels = 0;
    a.onCancel(run.threadId, run.runId, () => cancels++);
    await waitFor(
      async () => {
        await b.publishCancel(run);
        return cancels > 0;
      },
      'a cancel across instances after the failover',
      20_000,
      200,
    );
    const ended: RunEndedSignal[] = [];
    b.onRunEnded(run.threadId, run.runId, (signal) => ended.push(signal));
    await a.publishRunEnded({ ...run, status: 'canceled', stopReason: 'canceled' });
    await waitFor(() => ended.length === 1, 'the run-ended notice across instances');
  }, 120_000);

  it('moves an instance’s subscription off a node that died, and hears the cancel published meanwhile', async () => {
    for (const node of cluster.nodes) if (!node.running) await cluster.restart(node);
    const prefix = 'moving:';
    const listener = await open(
      new RedisSignalBus({
        url: cluster.url,
        cluster: true,
        keyPrefix: prefix,
        logger: new RecordingLogger(),
      }),
    );
    // A plain client publishes as a bus does, so the listener's is the one subscription.
    const publisher = new Cluster([cluster.url]);
    closing.push({ close: async () => publisher.disconnect() });
    const subscribedOn = async () => {
      for (const node of cluster.nodes.filter((candidate) => candidate.running)) {
        if (
          (await redisCli(node.port, 'PUBSUB', 'NUMSUB', `${prefix}cancel`)).trim().endsWith('\n1')
        )
          return node;
      }
      return undefined;
    };
    const home = await waitFor(subscribedOn, 'the listener’s subscription');
    let run = freshRun();
    const keyOf = (each: RunLogKey) =>
      `${prefix}cancel:{${encodeURIComponent(each.threadId)}:${encodeURIComponent(each.runId)}}`;
    // A cancel whose key lives on another master, so it is stored while the node is down.
    while ((await cluster.masterOf(keyOf(run))) === home) run = freshRun();
    let cancels = 0;
    listener.onCancel(run.threadId, run.runId, () => cancels++);

    const crashed = cluster.crash(home);
    await waitFor(() => !home.running, 'the node to be killed');
    await waitFor(
      () =>
        publisher
          .multi()
          .set(keyOf(run), '1', 'PX', 60_000)
          .publish(`${prefix}cancel`, JSON.stringify(run))
          .exec()
          .then(() => true),
      'the cancel to be published',
    );
    await crashed;

    await waitFor(() => cancels === 1, 'the cancel at the listener', 20_000);
    const moved = await waitFor(subscribedOn, 'the subscription on a live node');
    expect(moved.port).not.toBe(home.port);
    expect(listener.health().connected).toBe(true);
  }, 120_000);
});
