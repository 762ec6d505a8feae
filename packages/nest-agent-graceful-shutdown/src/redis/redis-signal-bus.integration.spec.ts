import { setTimeout as sleep } from 'node:timers/promises';
import type { LoggerService } from '@nestjs/common';
import { Redis } from 'ioredis';
import { ensureLocalServicePackages, RedisServer, waitFor } from 'dev-services';
import { RecordingLogger } from './recording-logger.fixtures.js';
import { RedisSignalBus } from './redis-signal-bus.js';
import type { RunEndedSignal } from '../contracts/signal-bus.interface.js';

/** The first run may install redis-server with apt, which takes minutes. */
const INSTALL_TIMEOUT_MS = 300_000;
/** An idle window long enough for any per-run polling to show up. */
const IDLE_WINDOW_MS = 500;

describe('RedisSignalBus', () => {
  let server: RedisServer;
  let admin: Redis;
  let prefix: string;
  let testCount = 0;
  const buses: RedisSignalBus[] = [];
  const extraServers: RedisServer[] = [];

  /** A connected bus playing one instance; keys and channels are this test's own. */
  async function instance(
    url = server.url,
    logger: LoggerService = new RecordingLogger(),
  ): Promise<RedisSignalBus> {
    const bus = new RedisSignalBus({ url, keyPrefix: prefix, logger });
    buses.push(bus);
    await bus.connect();
    return bus;
  }

  let infoCalls = 0;
  /** Commands the server has processed, less the INFO calls of this helper. */
  async function commandsProcessed(): Promise<number> {
    const stats = await admin.info('stats');
    return Number(/total_commands_processed:(\d+)/.exec(stats)?.[1]) - infoCalls++;
  }

  /** Subscribes runs `run-0`… of `threadId` on `bus`; returns how many cancels they got. */
  function listen(bus: RedisSignalBus, listeners: number, threadId = 'load'): () => number {
    let cancels = 0;
    for (let index = 0; index < listeners; index++)
      bus.onCancel(threadId, `run-${index}`, () => cancels++);
    return () => cancels;
  }

  let markers = 0;
  /**
   * Publishes a cancel of a fresh run on `from` and waits until `to` hears it. A subscriber
   * gets messages in the order Redis took them, so all published before has reached `to` too.
   */
  async function drain(from: RedisSignalBus, to: RedisSignalBus): Promise<void> {
    let heard = false;
    const run = { threadId: 'marker', runId: `m-${++markers}` };
    const stop = to.onCancel(run.threadId, run.runId, () => (heard = true));
    await from.publishCancel(run);
    await waitFor(() => heard, 'the marker cancel');
    stop();
  }

  beforeAll(async () => {
    await ensureLocalServicePackages();
    server = await RedisServer.start();
    admin = new Redis(server.url, { maxRetriesPerRequest: 0 });
  }, INSTALL_TIMEOUT_MS);

  beforeEach(() => {
    prefix = `test-${++testCount}:`;
  });

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
    await Promise.all(extraServers.splice(0).map((extra) => extra.destroy()));
  });

  afterAll(async () => {
    admin?.disconnect();
    await server?.destroy();
  });

  it('delivers a cancel published on one instance to the run subscribed on another', async () => {
    const [a, b] = [await instance(), await instance()];
    let cancels = 0;
    a.onCancel('t1', 'r1', () => cancels++);

    await b.publishCancel({ threadId: 't1', runId: 'r1' });

    await waitFor(() => cancels === 1, 'the cancel on A');
  });

  it('delivers a cancel published before the run subscribed, from the message it remembered', async () => {
    const [a, b] = [await instance(), await instance()];
    await b.publishCancel({ threadId: 't1', runId: 'r1' });
    await drain(b, a);
    let cancels = 0;

    a.onCancel('t1', 'r1', () => cancels++);

    await waitFor(() => cancels === 1, 'the remembered cancel on A');
  });

  it('delivers a cancel published while the subscriber connection was down, once it re-syncs', async () => {
    const [a, b] = [await instance(), await instance()];
    let cancels = 0;
    a.onCancel('t1', 'r1', () => cancels++);

    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    // Reconnects wait 200 ms, so nobody hears the message: only the key can carry it.
    expect(await admin.call('PUBSUB', 'NUMSUB', `${prefix}cancel`)).toEqual([`${prefix}cancel`, 0]);
    await b.publishCancel({ threadId: 't1', runId: 'r1' });

    await waitFor(() => cancels === 1, 'the re-synced cancel on A');
    expect(a.health().connected).toBe(true);
  });

  it('re-syncs listening runs beyond one batch of keys', async () => {
    const [a, b] = [await instance(), await instance()];
    const cancels = listen(a, 1_201);

    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    await b.publishCancel({ threadId: 'load', runId: 'run-1200' });

    await waitFor(() => cancels() === 1, 'the re-synced cancel of the last run');
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
    expect(await admin.exists(`${prefix}cancel:t1:r1`)).toBe(0);
  });

  it('keeps runs whose ids differ only in where a colon falls apart', async () => {
    const [a, b] = [await instance(), await instance()];
    let cancels = 0;
    a.onCancel('a:b', 'c', () => cancels++);

    await b.publishCancel({ threadId: 'a', runId: 'b:c' });
    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    await waitFor(() => a.health().connected && b.health().connected, 'both instances to re-sync');
    await drain(b, a);

    expect(cancels).toBe(0);
    expect(await admin.exists(`${prefix}cancel:a:b%3Ac`)).toBe(1);
  });

  it('sends no command while idle, whether 10 or 1000 runs listen', async () => {
    const [a, b] = [await instance(), await instance()];
    const idle = async (listeners: number) => {
      const before = await commandsProcessed();
      listen(a, listeners, `idle-${listeners}`);
      listen(b, listeners, `idle-${listeners}`);
      await sleep(IDLE_WINDOW_MS); // a fixed window on purpose: it measures what happens in it
      return (await commandsProcessed()) - before;
    };

    expect(await idle(10)).toBe(0);
    expect(await idle(1_000)).toBe(0);
  });

  it('sends the same commands for a cancel whether 10 or 1000 runs listen', async () => {
    const [a, b] = [await instance(), await instance()];
    const cancel = async (listeners: number) => {
      const before = await commandsProcessed();
      const cancels = listen(a, listeners, `load-${listeners}`);
      await b.publishCancel({ threadId: `load-${listeners}`, runId: 'run-0' });
      await waitFor(() => cancels() === 1, 'the cancel');
      return (await commandsProcessed()) - before;
    };

    expect(await cancel(10)).toBe(await cancel(1_000));
  });

  it('falls back to this instance while Redis is down and works across instances once it is back', async () => {
    const own = await RedisServer.start();
    extraServers.push(own);
    const logger = new RecordingLogger();
    const [a, b] = [await instance(own.url, logger), await instance(own.url)];
    let local = 0;
    a.onCancel('t1', 'r1', () => local++);

    await own.stop();
    await waitFor(() => !a.health().connected, 'A to see Redis go');
    await expect(a.publishCancel({ threadId: 't1', runId: 'r1' })).resolves.toBeUndefined();

    await waitFor(() => local === 1, 'the local cancel');
    expect(logger.entries).toContainEqual({
      level: 'warn',
      entry: expect.objectContaining({
        msg: 'redis unavailable, cancel delivered on this instance only',
        threadId: 't1',
        runId: 'r1',
      }),
    });
    await own.startAgain();
    await waitFor(
      () => a.health().connected && b.health().connected,
      'both instances to reconnect',
      20_000,
    );
    let remote = 0;
    a.onCancel('t2', 'r2', () => remote++);
    await b.publishCancel({ threadId: 't2', runId: 'r2' });
    await waitFor(() => remote === 1, 'the cross-instance cancel after the restart');
  }, 60_000);

  it('boots without Redis within a few seconds and connects once Redis is up', async () => {
    const own = await RedisServer.start();
    extraServers.push(own);
    await own.stop();
    const startedAt = Date.now();

    const bus = await instance(own.url);

    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(bus.health()).toEqual({
      transport: 'redis',
      connected: false,
      since: expect.any(String),
    });
    await own.startAgain();
    await waitFor(() => bus.health().connected, 'the bus to connect', 20_000);
  }, 60_000);
});
