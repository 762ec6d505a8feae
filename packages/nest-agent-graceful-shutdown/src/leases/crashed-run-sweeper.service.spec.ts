import { randomUUID } from 'node:crypto';
import { resolveShutdownOptions } from '../options/resolve-shutdown-options.js';
import { advanceLeaseClock } from '../typeorm-store/lease-clock.fixtures.js';
import {
  openSqliteStore,
  type SqliteStoreFixture,
} from '../typeorm-store/sqlite-store.fixtures.js';
import { CrashedRunSweeper } from './crashed-run-sweeper.service.js';
import { LeaseKeeper } from './lease-keeper.service.js';

const LEASE_TTL_MS = 10_000;

describe('CrashedRunSweeper', () => {
  let fixture: SqliteStoreFixture;
  let keeper: LeaseKeeper;
  let sweeper: CrashedRunSweeper;

  beforeEach(async () => {
    fixture = await openSqliteStore({ leaseTtlMs: LEASE_TTL_MS });
    const options = resolveShutdownOptions({
      leases: { ttlMs: LEASE_TTL_MS },
      instanceId: 'instance-a',
    });
    keeper = new LeaseKeeper(options, fixture.store);
    sweeper = new CrashedRunSweeper(options, fixture.store, keeper);
  });

  afterEach(async () => {
    keeper.onApplicationShutdown();
    sweeper.onApplicationShutdown();
    await fixture.close();
  });

  const running = async (threadId: string): Promise<string> => {
    const runKey = randomUUID();
    await fixture.store.startRun({
      threadId,
      ownerId: 'alice',
      runKey,
      runId: 'r1',
      instanceId: 'instance-a',
      messages: [],
    });
    return runKey;
  };

  it('records an expired run as crashed, but never one this instance still renews', async () => {
    keeper.hold(await running('held'), 'held', () => undefined);
    await running('orphan');
    await advanceLeaseClock(fixture.dataSource, LEASE_TTL_MS + 1);

    await expect(sweeper.sweep()).resolves.toBe(1);

    expect(await fixture.store.findThread('orphan')).toMatchObject({
      status: 'interrupted',
      interrupt: { reason: 'crash' },
    });
    await keeper.renew();
    expect(await fixture.store.findThread('held')).toMatchObject({
      status: 'running',
      activeRunId: 'r1',
    });
  });
});
