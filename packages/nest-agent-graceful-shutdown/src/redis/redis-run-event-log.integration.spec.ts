import { setTimeout as sleep } from 'node:timers/promises';
import type { LoggerService } from '@nestjs/common';
import { Redis } from 'ioredis';
import { ensureLocalServicePackages, RedisServer, waitFor } from 'dev-services';
import { RecordingLogger } from './recording-logger.fixtures.js';
import { describeRunEventLogContract } from '../testing/run-event-log.contract.js';
import {
  freshRun,
  idsOf,
  loggedEvents,
  RecordingListener,
} from '../testing/run-event-log-probes.js';
import { FOLLOW_BLOCK_MS } from './redis-log-follower.js';
import { RedisRunEventLog } from './redis-run-event-log.js';
import { RunEventChannel } from '../streams/run-event-channel.js';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';

/** The first run may install redis-server with apt, which takes minutes. */
const INSTALL_TIMEOUT_MS = 300_000;
/** Well below FOLLOW_BLOCK_MS: a follow that waited for the blocked read to time out would miss it. */
const PROMPT_MS = 1_000;

let server: RedisServer;
let testCount = 0;
const logs: RedisRunEventLog[] = [];

/** A connected log with keys of its own test. */
async function openLog(
  url = server.url,
  logger: LoggerService = new RecordingLogger(),
): Promise<RedisRunEventLog> {
  const log = new RedisRunEventLog({ url, keyPrefix: `test-${++testCount}:`, logger });
  logs.push(log);
  await log.connect();
  return log;
}

beforeAll(async () => {
  await ensureLocalServicePackages();
  server = await RedisServer.start();
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await server?.destroy();
});

describeRunEventLogContract('RedisRunEventLog', async () => {
  const log = await openLog();
  return { log, dispose: () => log.close() };
});

describe('RedisRunEventLog', () => {
  let admin: Redis;
  const follows: Unsubscribe[] = [];
  const extraServers: RedisServer[] = [];

  /** One line per connection the server holds, this test's admin connection included. */
  const clientLines = async () =>
    String(await admin.call('CLIENT', 'LIST'))
      .trim()
      .split('\n');
  const clients = async () => (await clientLines()).length;
  /** Connections blocked in a read of the logs. */
  const blockedReads = async () =>
    (await clientLines()).filter((line) => / flags=\w*b\w* .* cmd=xread/.test(line)).length;

  beforeAll(() => {
    admin = new Redis(server.url, { maxRetriesPerRequest: 0 });
  });

  afterEach(async () => {
    follows.splice(0).forEach((unsubscribe) => unsubscribe());
    await Promise.all(logs.splice(0).map((log) => log.close()));
    await Promise.all(extraServers.splice(0).map((extra) => extra.destroy()));
  });

  afterAll(() => admin?.disconnect());

  it('stores each run in one stream, an event with id n at entry n-0', async () => {
    const log = await openLog();
    const run = { threadId: 'thread:1', runId: 'run 1' };

    await log.append(run, loggedEvents(1, 2));

    const key = `test-${testCount}:log:thread%3A1:run%201`;
    expect(await admin.type(key)).toBe('stream');
    expect((await admin.xrange(key, '-', '+')).map(([id]) => id)).toEqual(['1-0', '2-0']);
  });

  it('removes the expiry of a retained log when a later attempt appends to it', async () => {
    const log = await openLog();
    const run = { threadId: 't1', runId: 'r1' };
    await log.append(run, loggedEvents(1, 1));
    await log.retain(run, 60_000);
    const key = `test-${testCount}:log:t1:r1`;
    expect(await admin.pttl(key)).toBeGreaterThan(0);

    await log.append(run, loggedEvents(2, 2));

    expect(await admin.pttl(key)).toBe(-1);
  });

  it('serves many followers of many runs over one blocking connection', async () => {
    const log = await openLog();
    const first = new RecordingListener();
    const run = freshRun();
    follows.push(log.follow(run, 0, first));
    await log.append(run, loggedEvents(1, 1));
    await waitFor(() => first.received.length === 1, 'the first follower');
    await waitFor(async () => (await blockedReads()) === 1, 'the read to block');
    const withOne = await clients();

    const listeners = Array.from({ length: 200 }, () => new RecordingListener());
    const runs = listeners.map((_, index) => (index % 2 ? run : freshRun()));
    listeners.forEach((listener, index) => follows.push(log.follow(runs[index], 0, listener)));
    await Promise.all(
      runs.map((each, index) =>
        each === run ? undefined : log.append(each, loggedEvents(1, 1 + (index % 3))),
      ),
    );
    await log.append(run, loggedEvents(2, 2));

    await waitFor(
      () =>
        listeners.every(
          (listener, index) =>
            listener.received.length === (runs[index] === run ? 2 : 1 + (index % 3)),
        ),
      'every follower',
    );
    await waitFor(async () => (await blockedReads()) === 1, 'the one read to block again');
    // Connections of earlier tests may still be on their way out: the count can only drop.
    expect(await clients()).toBeLessThanOrEqual(withOne);
  });

  it('delivers the events of a run followed while the read of another is blocked, without waiting for its timeout', async () => {
    const log = await openLog();
    const [quiet, busy] = [freshRun(), freshRun()];
    follows.push(log.follow(quiet, 0, new RecordingListener()));
    await log.append(busy, loggedEvents(1, 3));
    await waitFor(async () => (await blockedReads()) === 1, 'the read of the quiet run to block');
    const [late, older] = [new RecordingListener(), new RecordingListener()];
    const startedAt = Date.now();

    follows.push(log.follow(busy, 2, late));
    await waitFor(() => late.received.length === 1, 'the new run’s event');
    follows.push(log.follow(busy, 0, older));
    await waitFor(() => older.received.length === 3, 'the older events of a followed run');

    expect(Date.now() - startedAt).toBeLessThan(PROMPT_MS);
    expect([late.ids, older.ids]).toEqual([[3], [1, 2, 3]]);
  });

  it('keeps delivering to the other followers when a listener throws', async () => {
    const logger = new RecordingLogger();
    const log = await openLog(server.url, logger);
    const run = freshRun();
    const steady = new RecordingListener();
    const failing = {
      onEvents: () => {
        throw new Error('listener failed');
      },
    };
    follows.push(log.follow(run, 0, failing), log.follow(run, 0, steady));

    await log.append(run, loggedEvents(1, 1));
    await log.append(run, loggedEvents(2, 2));

    await waitFor(() => steady.received.length === 2, 'the steady follower');
    expect(logger.entries).toContainEqual({
      level: 'warn',
      entry: expect.objectContaining({ msg: 'run log listener failed', runId: run.runId }),
    });
  });

  it('resumes a follow once a restarted Redis is back, with the events appended since, and reads show the lost ones as a gap', async () => {
    const own = await RedisServer.start();
    extraServers.push(own);
    const log = await openLog(own.url);
    const run = freshRun();
    const listener = new RecordingListener();
    follows.push(log.follow(run, 0, listener));
    await log.append(run, loggedEvents(1, 3));
    await waitFor(() => listener.received.length === 3, 'the events before the restart');

    await own.stop();
    await own.startAgain();
    // Like the event channel: the same batch again until Redis takes it.
    await waitFor(
      () => log.append(run, loggedEvents(4, 5)).then(() => true),
      'the append after the restart',
      20_000,
    );

    await waitFor(() => listener.received.length === 5, 'the events after the restart', 20_000);
    expect(listener.ids).toEqual([1, 2, 3, 4, 5]);
    expect(idsOf(await log.read(run, 0, 100))).toEqual([4, 5]);
  }, 60_000);

  it("gets back, from the run's writer, what a restarted Redis lost: the log is whole again after the writer's next event", async () => {
    const own = await RedisServer.start();
    extraServers.push(own);
    const log = await openLog(own.url);
    const run = freshRun();
    const channel = await RunEventChannel.open(log, run, { firstAttempt: async () => true });
    await channel.activate('attempt-1');
    for (const event of loggedEvents(1, 3)) channel.emit(event.event);
    await channel.settle(5_000);

    await own.stop();
    await own.startAgain();
    for (const event of loggedEvents(4, 5)) channel.emit(event.event);
    await waitFor(
      async () => idsOf(await log.read(run, 0, 100).catch(() => null))?.length === 5,
      'the log to hold every event again',
      20_000,
    );

    expect(await log.read(run, 0, 100)).toEqual(loggedEvents(1, 5));
    await channel.close(1_000, 60_000);
  }, 60_000);

  it('sends at most the one read in progress once its last follower left', async () => {
    const log = await openLog();
    const run = freshRun();
    const listener = new RecordingListener();
    const unsubscribe = log.follow(run, 0, listener);
    await log.append(run, loggedEvents(1, 1));
    await waitFor(() => listener.received.length === 1, 'the event');
    unsubscribe();
    const before = Number(/total_commands_processed:(\d+)/.exec(await admin.info('stats'))?.[1]);

    await sleep(FOLLOW_BLOCK_MS + 1_000); // a fixed window on purpose: it measures what happens in it

    const after = Number(/total_commands_processed:(\d+)/.exec(await admin.info('stats'))?.[1]);
    expect(after - before - 1).toBeLessThanOrEqual(1);
  }, 30_000);

  it('works through connections copied from an ioredis client, which it leaves open', async () => {
    const client = new Redis(server.url);
    const log = new RedisRunEventLog({
      client,
      keyPrefix: `test-${++testCount}:`,
      logger: new RecordingLogger(),
    });
    logs.push(log);
    await log.connect();
    const run = freshRun();
    const listener = new RecordingListener();
    follows.push(log.follow(run, 0, listener));

    await log.append(run, loggedEvents(1, 2));

    await waitFor(() => listener.received.length === 2, 'the events');
    await log.close();
    expect(await client.ping()).toBe('PONG');
    client.disconnect();
  });

  it('closes at once while its read is blocked', async () => {
    const log = await openLog();
    follows.push(log.follow(freshRun(), 0, new RecordingListener()));
    await waitFor(async () => (await blockedReads()) === 1, 'the read to block');
    const startedAt = Date.now();

    await log.close();

    expect(Date.now() - startedAt).toBeLessThan(PROMPT_MS);
  });

  it('boots without Redis within a few seconds and serves once Redis is up', async () => {
    const own = await RedisServer.start();
    extraServers.push(own);
    await own.stop();
    const startedAt = Date.now();

    const log = await openLog(own.url);

    expect(Date.now() - startedAt).toBeLessThan(5_000);
    await expect(log.last(freshRun())).rejects.toThrow();
    await own.startAgain();
    const run = freshRun();
    await waitFor(
      () => log.append(run, loggedEvents(1, 1)).then(() => true),
      'the log to reach Redis',
      20_000,
    );
    expect(idsOf(await log.read(run, 0, 10))).toEqual([1]);
  }, 60_000);
});
