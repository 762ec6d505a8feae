/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import { TooManyRunsError } from '../errors/too-many-runs.error.js';
import type { SessionStore, StartRunCommand } from '../contracts/session-store.interface.js';

/** What the run-slot cases need from the enclosing contract: the store of the test and its clock. */
export interface RunSlotsContext {
  store: SessionStore;
  /** Moves the store's clock (and its database's, for leases) forward, in milliseconds. */
  advance(ms: number): Promise<void> | void;
  /** The store's lease length, in milliseconds. */
  leaseTtlMs: number;
}

/**
 * `StartRunCommand.maxActiveRunsPerOwner`: a start past the owner's limit of live runs is
 * refused, writing nothing. Runs inside `describeSessionStoreContract`, against each store.
 */
export function describeRunSlots(context: () => RunSlotsContext): void {
  describe('startRun with maxActiveRunsPerOwner', () => {
    const command = (threadId: string, ownerId = 'alice'): StartRunCommand => ({
      threadId,
      ownerId,
      runKey: randomUUID(),
      runId: `${threadId}-r1`,
      instanceId: 'instance-a',
      messages: [{ id: `${threadId}-m`, role: 'user', content: 'hi' }],
      maxActiveRunsPerOwner: 2,
    });

    it("refuses a start past the owner's limit of active runs and writes nothing", async () => {
      const { store } = context();
      await store.startRun(command('slot-1'));
      await store.startRun(command('slot-2'));

      await expect(store.startRun(command('slot-3'))).rejects.toBeInstanceOf(TooManyRunsError);
      expect(await store.findThread('slot-3')).toBeNull();
      expect(await store.loadMessages('slot-3')).toEqual([]);
    });

    it("counts only the owner's own runs", async () => {
      const { store } = context();
      await store.startRun(command('mine-1'));
      await store.startRun(command('mine-2'));

      await expect(store.startRun(command('theirs-1', 'bob'))).resolves.toEqual({
        fencingToken: expect.any(Number),
      });
    });

    it('frees a slot when a run ends', async () => {
      const { store } = context();
      const first = command('ends-1');
      await store.startRun(first);
      await store.startRun(command('ends-2'));
      await store.finishRun({
        threadId: first.threadId,
        runKey: first.runKey,
        status: 'completed',
        stopReason: 'completed',
        iteration: 1,
        phase: 'reasoning',
        interrupt: null,
      });

      await expect(store.startRun(command('ends-3'))).resolves.toEqual({
        fencingToken: expect.any(Number),
      });
    });

    it('does not count runs whose lease expired (a crashed instance)', async () => {
      const { store, advance, leaseTtlMs } = context();
      await store.startRun(command('ghost-1'));
      await store.startRun(command('ghost-2'));
      await advance(leaseTtlMs + 1);

      await expect(store.startRun(command('after-crash-1'))).resolves.toEqual({
        fencingToken: expect.any(Number),
      });
      await expect(store.startRun(command('after-crash-2'))).resolves.toEqual({
        fencingToken: expect.any(Number),
      });
    });

    it('counts runs whose lease is renewed', async () => {
      const { store, advance, leaseTtlMs } = context();
      const kept = [command('kept-1'), command('kept-2')];
      for (const c of kept) await store.startRun(c);
      await advance(leaseTtlMs - 1);
      await store.renewLeases(
        'instance-a',
        kept.map((c) => c.runKey),
      );
      await advance(2);

      await expect(store.startRun(command('kept-3'))).rejects.toBeInstanceOf(TooManyRunsError);
    });
  });
}
