import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import { resolveShutdownOptions } from '../options/resolve-shutdown-options.js';
import { advanceLeaseClock } from '../typeorm-store/lease-clock.fixtures.js';
import { SESSION_ENTITIES, SESSION_MIGRATIONS } from '../typeorm-store/session-schema.js';
import { TypeOrmSessionStore } from '../typeorm-store/typeorm-session.store.js';
import { LeaseKeeper } from './lease-keeper.service.js';

const LEASE_TTL_MS = 10_000;

describe('LeaseKeeper', () => {
  let dir: string;
  let dataSource: DataSource;
  let store: TypeOrmSessionStore;
  let keeper: LeaseKeeper;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lease-keeper-'));
    dataSource = await new DataSource({
      type: 'better-sqlite3',
      database: join(dir, 's.sqlite'),
      entities: SESSION_ENTITIES,
      migrations: SESSION_MIGRATIONS,
      migrationsRun: true,
    }).initialize();
    store = new TypeOrmSessionStore(dataSource, { leaseTtlMs: LEASE_TTL_MS });
    keeper = new LeaseKeeper(
      resolveShutdownOptions({ leases: { ttlMs: LEASE_TTL_MS }, instanceId: 'instance-a' }),
      store,
    );
  });

  afterEach(async () => {
    keeper.onApplicationShutdown();
    await dataSource.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  async function running(threadId: string, instanceId = 'instance-a'): Promise<string> {
    const runKey = randomUUID();
    await store.startRun({
      threadId,
      ownerId: 'alice',
      runKey,
      runId: 'r1',
      instanceId,
      messages: [],
    });
    return runKey;
  }

  it('keeps the threads of its runs running past the lease length by renewing them', async () => {
    const lost: string[] = [];
    keeper.hold(await running('t1'), 't1', () => lost.push('t1'));

    for (let i = 0; i < 3; i++) {
      await advanceLeaseClock(dataSource, LEASE_TTL_MS / 2);
      await keeper.renew();
    }

    expect(await store.findThread('t1')).toMatchObject({ status: 'running' });
    expect(lost).toEqual([]);
  });

  it('tells a run whose lease was recovered as a crash that it lost it, once', async () => {
    const lost: string[] = [];
    keeper.hold(await running('t1'), 't1', () => lost.push('t1'));
    keeper.hold(await running('t2'), 't2', () => lost.push('t2'));
    await advanceLeaseClock(dataSource, LEASE_TTL_MS + 1);
    await store.findThread('t1');

    await keeper.renew();
    await keeper.renew();

    expect(lost).toEqual(['t1']);
    expect(keeper.size).toBe(1);
  });

  describe('confirm, before a tool call', () => {
    const leaseUntil = async (threadId: string) =>
      (
        await dataSource.query(
          `SELECT lease_expires_at AS until FROM agent_threads WHERE thread_id = ?`,
          [threadId],
        )
      )[0].until as string;

    it('trusts a lease extended less than half its length ago, without a write', async () => {
      const runKey = await running('t1');
      keeper.hold(runKey, 't1', () => undefined);
      await advanceLeaseClock(dataSource, 1_000);
      const before = await leaseUntil('t1');

      await keeper.confirm(runKey, 't1', performance.now());

      expect(await leaseUntil('t1')).toBe(before);
    });

    it('renews a lease last extended longer ago (the process was paused) and goes on while it is still held', async () => {
      const runKey = await running('t1');
      const lost: string[] = [];
      keeper.hold(runKey, 't1', () => lost.push('t1'));
      await advanceLeaseClock(dataSource, 1_000);
      const before = await leaseUntil('t1');

      await keeper.confirm(runKey, 't1', performance.now() - LEASE_TTL_MS);

      expect((await leaseUntil('t1')) > before).toBe(true);
      expect(lost).toEqual([]);
      expect(keeper.size).toBe(1);
    });

    it('refuses, and stops the run once, when the lease was taken over while the process was paused', async () => {
      const runKey = await running('t1');
      const lost: string[] = [];
      keeper.hold(runKey, 't1', () => lost.push('t1'));
      await advanceLeaseClock(dataSource, LEASE_TTL_MS + 1);
      await store.recoverCrashedRuns();

      await expect(
        keeper.confirm(runKey, 't1', performance.now() - 2 * LEASE_TTL_MS),
      ).rejects.toBeInstanceOf(LeaseLostError);
      await keeper.renew();

      expect(lost).toEqual(['t1']);
      expect(keeper.size).toBe(0);
    });
  });

  it('stops renewing a lease once it is released, so it expires', async () => {
    const release = keeper.hold(await running('t1'), 't1', () => undefined);

    release();
    await advanceLeaseClock(dataSource, LEASE_TTL_MS + 1);
    await keeper.renew();

    expect(keeper.size).toBe(0);
    expect(await store.findThread('t1')).toMatchObject({
      status: 'interrupted',
      interrupt: { reason: 'crash' },
    });
  });
});
