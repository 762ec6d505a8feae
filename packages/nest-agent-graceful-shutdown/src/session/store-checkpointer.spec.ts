import { randomUUID } from 'node:crypto';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import { resolveShutdownOptions } from '../options/resolve-shutdown-options.js';
import { LeaseKeeper } from '../leases/lease-keeper.service.js';
import {
  openSqliteStore,
  type SqliteStoreFixture,
} from '../typeorm-store/sqlite-store.fixtures.js';
import { StoreCheckpointer } from './store-checkpointer.js';
import type { TypeOrmSessionStore } from '../typeorm-store/typeorm-session.store.js';

const LEASE_TTL_MS = 10_000;
const CALL = { id: 'call-1', name: 'lookup', arguments: '{}' };
const PROGRESS = { iteration: 1, phase: 'acting' as const };

describe('StoreCheckpointer, recording a tool call about to run', () => {
  let sqlite: SqliteStoreFixture;
  let store: TypeOrmSessionStore;
  let keeper: LeaseKeeper;
  let runKey: string;
  let lost: number;

  beforeEach(async () => {
    sqlite = await openSqliteStore({ leaseTtlMs: LEASE_TTL_MS });
    store = sqlite.store;
    keeper = new LeaseKeeper(
      resolveShutdownOptions({ leases: { ttlMs: LEASE_TTL_MS }, instanceId: 'instance-a' }),
      store,
    );
    runKey = randomUUID();
    await store.startRun({
      threadId: 't1',
      ownerId: 'alice',
      runKey,
      runId: 'r1',
      instanceId: 'instance-a',
      messages: [],
    });
    lost = 0;
    keeper.hold(runKey, 't1', () => lost++);
  });

  afterEach(async () => {
    keeper.onApplicationShutdown();
    await sqlite.close();
  });

  it('resolves once the record is written and the lease is confirmed from when it was sent', async () => {
    const sentAt: number[] = [];
    const before = performance.now();
    const checkpointer = new StoreCheckpointer(
      store,
      { threadId: 't1', runId: 'r1', runKey },
      { confirm: async (at) => void sentAt.push(at) },
    );

    await checkpointer.toolCallStarted(CALL, PROGRESS);

    expect(sentAt).toHaveLength(1);
    expect(sentAt[0]).toBeGreaterThanOrEqual(before);
    expect(await store.findToolCalls('t1', ['call-1'])).toEqual([
      expect.objectContaining({ status: 'started' }),
    ]);
  });

  it('refuses the call when the process was paused past the lease after the record, and another instance took the run', async () => {
    // The pause: the record committed, then a lease length went by and the crash sweep took the run.
    const pausedAfterTheRecord = {
      confirm: async (sentAt: number) => {
        await sqlite.advanceDatabaseClock(LEASE_TTL_MS + 1);
        await store.recoverCrashedRuns();
        return keeper.confirm(runKey, 't1', sentAt - LEASE_TTL_MS);
      },
    };
    const checkpointer = new StoreCheckpointer(
      store,
      { threadId: 't1', runId: 'r1', runKey },
      pausedAfterTheRecord,
    );

    await expect(checkpointer.toolCallStarted(CALL, PROGRESS)).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    expect(lost).toBe(1);
  });
});
