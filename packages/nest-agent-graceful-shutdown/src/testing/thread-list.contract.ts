/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { InterruptedState } from '../contracts/interrupted-state.js';
import type { SessionStore, StartRunCommand } from '../contracts/session-store.interface.js';
import type { ThreadListPosition, ThreadSummary } from '../contracts/thread-list.js';

/** What the thread-list cases need from the enclosing contract: the store of the test and its clock. */
export interface ThreadListContext {
  store: SessionStore;
  /** Moves the store's clock (and its leases' clock) forward, in milliseconds. */
  advance(ms: number): Promise<void> | void;
  /** The store's lease length, in milliseconds. */
  leaseTtlMs: number;
}

const marker = (reason: InterruptedState['reason']): InterruptedState => ({
  reason,
  interruptedAt: '2025-01-02T03:04:05.000Z',
  runId: 'r1',
  phase: 'acting',
  iteration: 1,
  pendingToolCalls: [],
});

/**
 * `SessionStore.listThreads`: a user's threads, most recently active first, by keyset pages.
 * Runs inside `describeSessionStoreContract`, against each store it is given.
 */
export function describeThreadListing(context: () => ThreadListContext): void {
  describe('listThreads', () => {
    /** Starts a run on `threadId` for `ownerId`; returns its command to finish or checkpoint it. */
    const start = async (threadId: string, ownerId = 'alice'): Promise<StartRunCommand> => {
      const command: StartRunCommand = {
        threadId,
        ownerId,
        runKey: randomUUID(),
        runId: `${threadId}-r1`,
        instanceId: 'instance-a',
        messages: [],
      };
      await context().store.startRun(command);
      return command;
    };

    const finish = (command: StartRunCommand, interrupt: InterruptedState | null = null) =>
      context().store.finishRun({
        threadId: command.threadId,
        runKey: command.runKey,
        status: interrupt ? 'interrupted' : 'completed',
        stopReason: interrupt ? 'interrupted' : 'completed',
        iteration: 1,
        phase: 'reasoning',
        interrupt,
      });

    /** A thread created and finished, then the clock moves on so the next one is newer. */
    const idleThread = async (threadId: string, ownerId = 'alice') => {
      await finish(await start(threadId, ownerId));
      await context().advance(10);
    };

    /** Every page of `ownerId`'s threads, `limit` at a time, following `next` to the end. */
    const allPages = async (ownerId: string, limit: number): Promise<ThreadSummary[][]> => {
      const pages: ThreadSummary[][] = [];
      let after: ThreadListPosition | undefined;
      for (let guard = 0; guard < 100; guard++) {
        const page = await context().store.listThreads({ ownerId, limit, after });
        pages.push(page.threads);
        if (!page.next) return pages;
        after = page.next;
      }
      throw new Error('listThreads never returned a last page');
    };

    it("lists only the owner's threads, most recently active first, with their status and message count", async () => {
      await idleThread('old', 'alice');
      await idleThread('bobs', 'bob');
      await idleThread('new', 'alice');

      const page = await context().store.listThreads({ ownerId: 'alice', limit: 10 });

      expect(page.next).toBeNull();
      expect(page.threads).toEqual([
        {
          threadId: 'new',
          ownerId: 'alice',
          status: 'idle',
          messageCount: 0,
          updatedAt: expect.any(String),
        },
        {
          threadId: 'old',
          ownerId: 'alice',
          status: 'idle',
          messageCount: 0,
          updatedAt: expect.any(String),
        },
      ]);
      expect(page.threads[0].updatedAt > page.threads[1].updatedAt).toBe(true);
    });

    it('moves a thread to the front when it is written to again', async () => {
      const first = await start('first');
      await context().advance(10);
      await idleThread('second');

      await finish(first);

      const page = await context().store.listThreads({ ownerId: 'alice', limit: 10 });
      expect(page.threads.map((thread) => thread.threadId)).toEqual(['first', 'second']);
    });

    it('pages to the end with each thread once, in one order, when many threads share one updatedAt', async () => {
      const ids = ['t-a', 't-b', 't-c', 't-d', 't-e', 't-f', 't-g'];
      for (const id of ids) await finish(await start(id)); // the clock stands still: every updatedAt ties

      const pages = await allPages('alice', 3);

      expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
      expect(pages.flat().map((thread) => thread.threadId)).toEqual([...ids].reverse());
    });

    it('ends with a page without next when the last page is exactly full', async () => {
      for (const id of ['a', 'b', 'c', 'd']) await idleThread(id);

      const pages = await allPages('alice', 2);

      expect(pages.map((page) => page.map((thread) => thread.threadId))).toEqual([
        ['d', 'c'],
        ['b', 'a'],
      ]);
    });

    it('answers an empty page for a user without threads', async () => {
      await idleThread('t1', 'alice');

      await expect(context().store.listThreads({ ownerId: 'carol', limit: 5 })).resolves.toEqual({
        threads: [],
        next: null,
      });
    });

    it('reads each status: running, idle, interrupted, awaiting_approval, and an expired lease as interrupted', async () => {
      await idleThread('idle');
      await finish(await start('interrupted'), marker('shutdown'));
      await finish(await start('approval'), marker('approval'));
      await start('crashed');
      await context().advance(context().leaseTtlMs + 1);
      await start('running');

      const { threads } = await context().store.listThreads({ ownerId: 'alice', limit: 10 });

      expect(Object.fromEntries(threads.map((thread) => [thread.threadId, thread.status]))).toEqual(
        {
          idle: 'idle',
          interrupted: 'interrupted',
          approval: 'awaiting_approval',
          crashed: 'interrupted',
          running: 'running',
        },
      );
    });
  });
}
