import type { LoggerService } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { waitFor } from 'dev-services';
import { describeSignalBusContract } from '../testing/signal-bus.contract.js';
import { PostgresSignalBus } from './postgres-signal-bus.js';
import { usePostgresDatabases } from '../typeorm-store/postgres-databases.fixtures.js';
import { SilentTcpProxy } from './silent-tcp-proxy.fixtures.js';

/** Keeps what the bus logs, so the output stays quiet and a test can read it. */
class QuietLogger implements LoggerService {
  readonly messages: string[] = [];
  log = (entry: { msg: string }) => void this.messages.push(entry.msg);
  warn = (entry: { msg: string }) => void this.messages.push(entry.msg);
  error = (entry: { msg: string }) => void this.messages.push(entry.msg);
}

const databases = usePostgresDatabases('signal_bus');
const sources: DataSource[] = [];
const buses: PostgresSignalBus[] = [];

/** Buses on `source`, each with its own listening connection, as instances hold them; connected. */
async function instances(
  source: DataSource,
  count: number,
  logger: LoggerService = new QuietLogger(),
  initialDelayMs = 50,
): Promise<PostgresSignalBus[]> {
  const made = Array.from(
    { length: count },
    () =>
      new PostgresSignalBus(source, { logger, reconnect: { initialDelayMs, maxDelayMs: 1_000 } }),
  );
  buses.push(...made);
  await Promise.all(made.map((bus) => bus.connect()));
  return made;
}

async function disposeAll(): Promise<void> {
  await Promise.all(buses.splice(0).map((bus) => bus.close()));
  await Promise.all(sources.splice(0).map((source) => source.destroy()));
}

async function openSource(): Promise<DataSource> {
  const source = await databases.open({ poolSize: 4 });
  sources.push(source);
  return source;
}

describeSignalBusContract('PostgresSignalBus', async () => {
  const source = await openSource();
  return { instances: (count) => instances(source, count), dispose: disposeAll };
});

describe('PostgresSignalBus', () => {
  afterEach(disposeAll);

  it('keeps a cancel in agent_run_cancels until its run ends', async () => {
    const source = await openSource();
    const [a] = await instances(source, 1);
    const rows = async () =>
      Number(
        (
          await source.query(
            `SELECT count(*) AS n FROM agent_run_cancels WHERE thread_id = 't-kept'`,
          )
        )[0].n,
      );

    await a.publishCancel({ threadId: 't-kept', runId: 'r1' });
    expect(await rows()).toBe(1);

    await a.publishRunEnded({
      threadId: 't-kept',
      runId: 'r1',
      status: 'canceled',
      stopReason: 'canceled',
    });
    expect(await rows()).toBe(0);
  });

  it('finds in the table a cancel published before this instance started', async () => {
    const source = await openSource();
    const [a] = await instances(source, 1);
    await a.publishCancel({ threadId: 't-early', runId: 'r1' });

    const [late] = await instances(source, 1);
    let heard = 0;
    late.onCancel('t-early', 'r1', () => heard++);

    await waitFor(() => heard > 0, 'the cancel from the table');
  });

  it('carries a cancel whose ids are too long for a notification, through the table', async () => {
    const source = await openSource();
    const [a, b] = await instances(source, 2);
    const run = { threadId: 't-long', runId: 'r'.repeat(9_000) };
    let heard = 0;
    b.onCancel(run.threadId, run.runId, () => heard++);

    await a.publishCancel(run);

    await waitFor(() => heard > 0, 'the long-id cancel on the other instance');
  });

  it('reports the postgres transport in health, and refuses a channel prefix that is not a plain name', async () => {
    const source = await openSource();
    const [a] = await instances(source, 1);

    expect(a.health()).toMatchObject({ transport: 'postgres', connected: true });
    expect(() => new PostgresSignalBus(source, { channelPrefix: 'Bad-Prefix"' })).toThrow(
      /channelPrefix/,
    );
  });

  it('falls back to this instance while PostgreSQL restarts, then reconnects, re-syncs and carries signals again', async () => {
    const source = await openSource();
    const logger = new QuietLogger();
    const [a, b] = await instances(source, 2, logger);
    let bCancels = 0;
    b.onCancel('t-restart', 'r1', () => bCancels++);

    await databases.server.stop('immediate');
    await waitFor(
      () => !a.health().connected && !b.health().connected,
      'both buses to report the lost connection',
    );
    let aCancels = 0;
    a.onCancel('t-local', 'r1', () => aCancels++);
    await a.publishCancel({ threadId: 't-local', runId: 'r1' });
    expect(aCancels).toBe(1);

    await databases.server.startAgain();
    await waitFor(
      () => a.health().connected && b.health().connected,
      'both buses to reconnect',
      30_000,
    );
    // Published on A once it is back: B hears it, through the channel or the re-sync.
    await waitFor(async () => {
      await a.publishCancel({ threadId: 't-restart', runId: 'r1' }).catch(() => undefined);
      return bCancels > 0;
    }, 'a cancel across instances after the restart');

    expect(logger.messages).toContain(
      'postgres signal connection lost, signals stay on this instance',
    );
    expect(logger.messages).toContain('postgres signal connection restored');
  });

  it('delivers on reconnect a cancel published while the listening connection was away', async () => {
    const source = await openSource();
    // Slow first retry, so the cancel is surely published while neither instance listens.
    const [a, b] = await instances(source, 2, new QuietLogger(), 1_000);
    let heard = 0;
    b.onCancel('t-missed', 'r1', () => heard++);

    await source.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'agent-signal-listener' AND datname = current_database()`,
    );
    await waitFor(
      () => !a.health().connected && !b.health().connected,
      'both listening connections to be lost',
    );
    await a.publishCancel({ threadId: 't-missed', runId: 'r1' });
    expect(heard).toBe(0);

    await waitFor(() => heard > 0, 'the missed cancel after the reconnect');
    expect(b.health().connected).toBe(true);
  });

  it('counts a listening connection that went silent as lost, and listens again on a new one', async () => {
    const source = await openSource();
    const proxy = await SilentTcpProxy.start(databases.server.port);
    const url = new URL(String((source.options as { url: string }).url));
    url.port = String(proxy.port);
    const proxied = await new DataSource({ type: 'postgres', url: url.toString() }).initialize();
    try {
      const logger = new QuietLogger();
      const [a] = await instances(proxied, 1, logger);
      expect(a.health().connected).toBe(true);

      // No reset, no FIN: only an unanswered ping tells the connection is gone.
      proxy.silence();
      await waitFor(
        () => !a.health().connected,
        'the silent listening connection to count as lost',
        30_000,
      );
      await waitFor(() => a.health().connected, 'a new listening connection');
      expect(logger.messages).toContain('postgres signal connection restored');
    } finally {
      await Promise.all(buses.splice(0).map((bus) => bus.close()));
      await proxy.close();
      await proxied.destroy().catch(() => undefined);
    }
  }, 60_000);
});
