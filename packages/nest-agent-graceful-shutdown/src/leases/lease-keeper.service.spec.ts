import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { resolveShutdownOptions } from '../graceful-shutdown.constants';
import { advanceLeaseClock } from '../session/lease-clock.fixtures';
import { SESSION_ENTITIES, SESSION_MIGRATIONS } from '../session/session-schema';
import { TypeOrmSessionStore } from '../session/typeorm-session.store';
import { LeaseKeeper } from './lease-keeper.service';

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
    keeper = new LeaseKeeper(resolveShutdownOptions({ leases: { ttlMs: LEASE_TTL_MS }, instanceId: 'instance-a' }), store);
  });

  afterEach(async () => {
    keeper.onApplicationShutdown();
    await dataSource.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  async function running(threadId: string, instanceId = 'instance-a'): Promise<string> {
    const runKey = randomUUID();
    await store.startRun({ threadId, ownerId: 'alice', runKey, runId: 'r1', instanceId, messages: [] });
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

  it('stops renewing a lease once it is released, so it expires', async () => {
    const release = keeper.hold(await running('t1'), 't1', () => undefined);

    release();
    await advanceLeaseClock(dataSource, LEASE_TTL_MS + 1);
    await keeper.renew();

    expect(keeper.size).toBe(0);
    expect(await store.findThread('t1')).toMatchObject({ status: 'interrupted', interrupt: { reason: 'crash' } });
  });
});
