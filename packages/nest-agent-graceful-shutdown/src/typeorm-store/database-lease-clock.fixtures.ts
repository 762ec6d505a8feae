/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { waitFor } from 'dev-services';
import { advanceLeaseClock } from './lease-clock.fixtures.js';
import type { StartRunCommand } from '../contracts/session-store.interface.js';
import type { TypeOrmSessionStore, TypeOrmSessionStoreOptions } from './typeorm-session.store.js';

/** A TypeORM store on a fresh database, as each database's spec opens one. */
export interface OpenedStore {
  store: TypeOrmSessionStore;
  dataSource: DataSource;
  close(): Promise<void>;
}

const LEASE_TTL_MS = 10_000;
const HOUR_MS = 3_600_000;

const command = (threadId: string): StartRunCommand => ({
  threadId,
  ownerId: 'alice',
  runKey: randomUUID(),
  runId: 'r1',
  instanceId: 'instance-a',
  messages: [],
});
const target = (started: StartRunCommand) => ({
  threadId: started.threadId,
  runId: 'r1',
  runKey: started.runKey,
  iteration: 1,
  phase: 'acting' as const,
});

/**
 * The TypeORM store's leases on one database: written and judged on the database's clock,
 * whatever the instance's clock (the store's injected `now`) says, and extended by checkpoints.
 */
export function describeDatabaseLeaseClock(
  name: string,
  open: (options: TypeOrmSessionStoreOptions) => Promise<OpenedStore>,
): void {
  describe(`${name}: leases on the database's clock`, () => {
    let opened: OpenedStore | undefined;
    let instanceClock = Date.now();
    const openStore = async (options: TypeOrmSessionStoreOptions = {}) =>
      (opened = await open({ leaseTtlMs: LEASE_TTL_MS, now: () => instanceClock, ...options }));

    beforeEach(() => {
      instanceClock = Date.now();
    });

    afterEach(async () => {
      await opened?.close();
      opened = undefined;
    });

    it('keeps a live lease live for status reads, lists and sweeps of an instance whose clock runs an hour ahead', async () => {
      const { store } = await openStore();
      await store.startRun(command('t1'));

      instanceClock += HOUR_MS;

      await expect(store.recoverCrashedRuns()).resolves.toBe(0);
      expect(await store.findThread('t1')).toMatchObject({ status: 'running', activeRunId: 'r1' });
      expect((await store.listThreads({ ownerId: 'alice', limit: 10 })).threads).toMatchObject([
        { threadId: 't1', status: 'running' },
      ]);
    });

    it('writes the lease from the database clock when the instance starting the run has its clock an hour behind', async () => {
      instanceClock -= HOUR_MS;
      const { store } = await openStore();
      await store.startRun(command('t1'));

      instanceClock = Date.now();

      await expect(store.recoverCrashedRuns()).resolves.toBe(0);
      expect(await store.findThread('t1')).toMatchObject({ status: 'running', activeRunId: 'r1' });
    });

    it("expires a lease once the database's clock passes its end, while the instance's clock stands still", async () => {
      const { store } = await openStore({ leaseTtlMs: 1 });
      await store.startRun(command('t1'));

      const thread = await waitFor(async () => {
        const read = await store.findThread('t1');
        return read?.status === 'interrupted' ? read : undefined;
      }, 'the one-millisecond lease to run out on the database clock');

      expect(thread).toMatchObject({
        activeRunId: null,
        interrupt: { reason: 'crash', runId: 'r1' },
      });
    });

    it.each([
      [
        'a message checkpoint',
        (store: TypeOrmSessionStore, started: StartRunCommand) =>
          store.appendMessages(target(started), [
            { id: 'a1', role: 'assistant', content: 'thinking' },
          ]),
      ],
      [
        'a started tool call',
        (store: TypeOrmSessionStore, started: StartRunCommand) =>
          store.recordToolCallStarted(target(started), {
            id: 'c1',
            name: 'search',
            arguments: '{}',
          }),
      ],
      [
        "the framework's state",
        (store: TypeOrmSessionStore, started: StartRunCommand) =>
          store.saveRunState(target(started), { step: 1 }),
      ],
    ])('extends the lease with %s, as a renewal would', async (_what, checkpoint) => {
      const { store, dataSource } = await openStore();
      const started = command('t1');
      await store.startRun(started);
      await advanceLeaseClock(dataSource, LEASE_TTL_MS - 1_000);

      await checkpoint(store, started);
      await advanceLeaseClock(dataSource, LEASE_TTL_MS - 1_000);

      expect(await store.findThread('t1')).toMatchObject({ status: 'running', activeRunId: 'r1' });
    });
  });
}
