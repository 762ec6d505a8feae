import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { describeDatabaseLeaseClock } from './database-lease-clock.fixtures.js';
import { describeRecordFormat } from './record-format.fixtures.js';
import { advanceLeaseClock } from './lease-clock.fixtures.js';
import { usePostgresDatabases } from './postgres-databases.fixtures.js';
import type { StartRunCommand } from '../contracts/session-store.interface.js';
import { TypeOrmSessionStore, type TypeOrmSessionStoreOptions } from './typeorm-session.store.js';

const databases = usePostgresDatabases('leases');

/** A store on a fresh database; `poolSize` limits the main pool, as a loaded service's is. */
async function openStore(options: TypeOrmSessionStoreOptions = {}, poolSize = 10) {
  const dataSource = await databases.open({ poolSize });
  const store = new TypeOrmSessionStore(dataSource, options);
  return {
    store,
    dataSource,
    async close() {
      await store.onApplicationShutdown();
      await dataSource.destroy();
    },
  };
}

describeDatabaseLeaseClock('TypeOrmSessionStore on PostgreSQL', (options) => openStore(options));

describeRecordFormat('TypeOrmSessionStore on PostgreSQL', (options) => openStore(options));

describe('lease renewal and sweeps on PostgreSQL', () => {
  let opened: Awaited<ReturnType<typeof openStore>>;
  let checkpoint: QueryRunner | undefined;

  afterEach(async () => {
    if (checkpoint?.isTransactionActive) await checkpoint.rollbackTransaction();
    await checkpoint?.release();
    checkpoint = undefined;
    await opened.close();
  });

  const started = async (threadId: string): Promise<StartRunCommand> => {
    const command = {
      threadId,
      ownerId: 'alice',
      runKey: randomUUID(),
      runId: 'r1',
      instanceId: 'instance-a',
      messages: [],
    };
    await opened.store.startRun(command);
    return command;
  };

  /** Another connection takes the thread's row lock and keeps it, as a checkpoint in flight does. */
  const lockRow = async (threadId: string) => {
    checkpoint = opened.dataSource.createQueryRunner();
    await checkpoint.connect();
    await checkpoint.startTransaction();
    await checkpoint.query('SELECT 1 FROM agent_threads WHERE thread_id = $1 FOR UPDATE', [
      threadId,
    ]);
  };

  const leaseOf = async (threadId: string): Promise<string> =>
    (
      await opened.dataSource.query(
        'SELECT lease_expires_at FROM agent_threads WHERE thread_id = $1',
        [threadId],
      )
    )[0].lease_expires_at;

  it("completes a renewal while another connection holds a thread's row lock, extending the other leases", async () => {
    opened = await openStore({ leaseTtlMs: 10_000 });
    const [locked, free] = [await started('t1'), await started('t2')];
    await advanceLeaseClock(opened.dataSource, 5_000);
    const before = await leaseOf('t2');
    await lockRow('t1');

    await expect(
      opened.store.renewLeases('instance-a', [locked.runKey, free.runKey]),
    ).resolves.toEqual([]);

    expect(checkpoint!.isTransactionActive).toBe(true);
    expect((await leaseOf('t2')) > before).toBe(true);
  });

  it('renews on a connection of its own while every connection of the main pool is taken', async () => {
    opened = await openStore({ leaseTtlMs: 10_000 }, 1);
    const run = await started('t1');
    checkpoint = opened.dataSource.createQueryRunner();
    await checkpoint.connect();
    await checkpoint.startTransaction();

    await expect(opened.store.renewLeases('instance-a', [run.runKey])).resolves.toEqual([]);

    expect(checkpoint.isTransactionActive).toBe(true);
    const renewers = await checkpoint.query(
      "SELECT pid FROM pg_stat_activity WHERE application_name = 'agent-lease-renewer'",
    );
    expect(renewers).toHaveLength(1);
  });

  it('skips, instead of waiting for, an expired thread whose row another transaction holds, and sweeps it once it is free', async () => {
    opened = await openStore({ leaseTtlMs: 10_000 });
    await started('t1');
    await advanceLeaseClock(opened.dataSource, 10_001);
    await lockRow('t1');

    await expect(opened.store.recoverCrashedRuns()).resolves.toBe(0);
    expect(checkpoint!.isTransactionActive).toBe(true);
    await checkpoint!.rollbackTransaction();

    await expect(opened.store.recoverCrashedRuns()).resolves.toBe(1);
  });

  it('answers a status read of an expired thread whose row another transaction holds without waiting for the lock', async () => {
    opened = await openStore({ leaseTtlMs: 10_000 });
    await started('t1');
    await advanceLeaseClock(opened.dataSource, 10_001);
    await lockRow('t1');

    await expect(opened.store.findThread('t1')).resolves.toMatchObject({
      status: 'running',
      activeRunId: 'r1',
    });

    expect(checkpoint!.isTransactionActive).toBe(true);
  });
});
