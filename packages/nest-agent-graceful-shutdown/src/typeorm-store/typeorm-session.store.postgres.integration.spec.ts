import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { describeRunEventLogContract } from '../testing/run-event-log.contract.js';
import { describeSessionStoreContract } from '../testing/session-store.contract.js';
import { TooManyRunsError } from '../errors/too-many-runs.error.js';
import { advanceLeaseClock } from './lease-clock.fixtures.js';
import { TypeOrmRunEventLog } from './typeorm-run-event-log.js';
import { usePostgresDatabases } from './postgres-databases.fixtures.js';
import { SESSION_ENTITIES, SESSION_MIGRATIONS } from './session-schema.js';
import { ThreadBusyError } from '../contracts/session-store.interface.js';
import { TypeOrmSessionStore } from './typeorm-session.store.js';

const databases = usePostgresDatabases('contract');

describeSessionStoreContract(
  'TypeOrmSessionStore on PostgreSQL',
  async (settings) => {
    const dataSource = await databases.open();
    const store = new TypeOrmSessionStore(dataSource, settings);
    return {
      store,
      advanceDatabaseClock: (ms) => advanceLeaseClock(dataSource, ms),
      close: async () => {
        await store.onApplicationShutdown();
        await dataSource.destroy();
      },
    };
  },
  { rollback: true, queue: true },
);

describe('TypeOrmSessionStore on PostgreSQL shared by two instances', () => {
  const sources: DataSource[] = [];
  afterEach(async () => {
    await Promise.all(sources.splice(0).map((source) => source.destroy()));
  });

  /** Two stores on one database, as two service instances have. */
  async function twoInstances(name: string): Promise<[TypeOrmSessionStore, TypeOrmSessionStore]> {
    const url = await databases.server.createDatabase(name);
    const open = async () => {
      const source = new DataSource({
        type: 'postgres',
        url,
        entities: SESSION_ENTITIES,
        migrations: SESSION_MIGRATIONS,
      });
      sources.push(await source.initialize());
      return new TypeOrmSessionStore(source);
    };
    const first = await open();
    await sources[0].runMigrations();
    return [first, await open()];
  }

  // As the service starts runs: the user's messages come with the run's first step, not here.
  const start = (store: TypeOrmSessionStore, runId: string, instanceId: string) =>
    store.startRun({
      threadId: 'shared',
      ownerId: 'alice',
      runKey: randomUUID(),
      runId,
      instanceId,
      messages: [],
      expectedLastRunKey: null,
    });

  it('lets exactly one of two instances start a new thread at the same moment', async () => {
    const [a, b] = await twoInstances('race_new');

    const results = await Promise.allSettled([
      start(a, 'r-a', 'instance-a'),
      start(b, 'r-b', 'instance-b'),
    ]);

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: expect.any(ThreadBusyError),
    });
    const winner = results[0].status === 'fulfilled' ? 'r-a' : 'r-b';
    expect(await b.findThread('shared')).toMatchObject({
      activeRunId: winner,
      lastRun: { runId: winner },
    });
  });

  it('lets exactly one of two instances resume an interrupted thread at the same moment', async () => {
    const [a, b] = await twoInstances('race_resume');
    await start(a, 'r0', 'instance-a');
    const first = (await a.findThread('shared'))!.lastRun!.key;
    await a.finishRun({
      threadId: 'shared',
      runKey: first,
      status: 'interrupted',
      stopReason: 'interrupted',
      iteration: 1,
      phase: 'reasoning',
      interrupt: null,
    });

    const results = await Promise.allSettled(
      [a, b].map((store, i) =>
        store.startRun({
          threadId: 'shared',
          ownerId: 'alice',
          runKey: randomUUID(),
          runId: `r${i + 1}`,
          instanceId: `instance-${i}`,
          messages: [],
          expectedLastRunKey: first,
        }),
      ),
    );

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: expect.any(ThreadBusyError),
    });
  });

  it("admits exactly the owner's limit of runs started at once from two instances", async () => {
    const [a, b] = await twoInstances('race_slots');
    const starts = Array.from({ length: 8 }, (_, i) =>
      (i % 2 ? a : b).startRun({
        threadId: `slot-${i}`,
        ownerId: 'alice',
        runKey: randomUUID(),
        runId: 'r1',
        instanceId: i % 2 ? 'instance-a' : 'instance-b',
        messages: [],
        maxActiveRunsPerOwner: 2,
      }),
    );

    const results = await Promise.allSettled(starts);

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(
      results
        .filter((r) => r.status === 'rejected')
        .map((r) => (r as PromiseRejectedResult).reason),
    ).toEqual(Array(6).fill(expect.any(TooManyRunsError)));
  });

  it('saves a checkpoint written while the database restarts, once', async () => {
    const [store] = await twoInstances('restart');
    await start(store, 'r1', 'instance-a');
    const runKey = (await store.findThread('shared'))!.lastRun!.key;
    const stopped = databases.server.stop('fast');

    const written = store.appendMessages(
      { threadId: 'shared', runId: 'r1', runKey, iteration: 1, phase: 'reasoning' },
      [{ id: 'during-restart', role: 'assistant', content: 'kept' }],
    );
    await stopped;
    await databases.server.startAgain();

    await expect(written).resolves.toBeUndefined();
    expect((await store.loadMessages('shared')).map((m) => m.id)).toEqual(['during-restart']);
  }, 60_000);

  it("answers a resumed run's read of its tool calls once the database is back, instead of failing the run", async () => {
    const [store] = await twoInstances('restart_read');
    await start(store, 'r1', 'instance-a');
    const runKey = (await store.findThread('shared'))!.lastRun!.key;
    const call = { id: 'call-1', name: 'lookup', arguments: '{}' };
    await store.recordToolCallStarted(
      { threadId: 'shared', runId: 'r1', runKey, iteration: 1, phase: 'acting' },
      call,
    );
    await databases.server.stop('fast');

    // Asked while the server is down: the connection is refused until it is back.
    const found = store.findToolCalls('shared', ['call-1']);
    await databases.server.startAgain();

    await expect(found).resolves.toEqual([
      expect.objectContaining({ toolCallId: 'call-1', status: 'started' }),
    ]);
  }, 60_000);
});

describeRunEventLogContract('TypeOrmRunEventLog on PostgreSQL', async () => {
  let time = Date.parse('2025-01-02T03:00:00.000Z');
  const dataSource = await databases.open();
  return {
    log: new TypeOrmRunEventLog(dataSource, () => time),
    dispose: () => dataSource.destroy(),
    advance: (ms: number) => void (time += ms),
  };
});
