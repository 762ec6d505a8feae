/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { SessionStore, StartRunCommand } from '../contracts/session-store.interface.js';
import type { RunSlotsContext } from './run-slots.contract.js';

/**
 * `startRun`'s fencing token: every new attempt on a thread gets a higher one than every
 * attempt before it, whether it follows a finished run, a shutdown, a crash whose lease expired
 * or a retry of the same run. Runs inside `describeSessionStoreContract`, against each store.
 */
export function describeFencingTokens(context: () => RunSlotsContext): void {
  describe('startRun fencing tokens', () => {
    const command = (threadId: string, runId: string): StartRunCommand => ({
      threadId,
      ownerId: 'alice',
      runKey: randomUUID(),
      runId,
      instanceId: 'instance-a',
      messages: [{ id: `${runId}-${randomUUID()}`, role: 'user', content: 'hi' }],
    });
    const end = (
      store: SessionStore,
      started: StartRunCommand,
      status: 'completed' | 'interrupted',
    ) =>
      store.finishRun({
        threadId: started.threadId,
        runKey: started.runKey,
        status,
        stopReason: status,
        iteration: 1,
        phase: 'acting',
        interrupt:
          status === 'interrupted'
            ? {
                reason: 'shutdown',
                interruptedAt: new Date(0).toISOString(),
                runId: started.runId,
                phase: 'acting',
                iteration: 1,
                pendingToolCalls: [],
              }
            : null,
      });

    it("gives a new thread's first run a positive token", async () => {
      const { store } = context();
      const { fencingToken } = await store.startRun(command('fence-new', 'r1'));
      expect(fencingToken).toBeGreaterThan(0);
    });

    it('gives every new attempt a higher token: a next run, a retry of an interrupted run, a takeover after a crash', async () => {
      const { store, advance, leaseTtlMs } = context();
      const tokens: number[] = [];
      const first = command('fence-t', 'r1');
      tokens.push((await store.startRun(first)).fencingToken);
      await end(store, first, 'completed');
      const second = command('fence-t', 'r2');
      tokens.push((await store.startRun(second)).fencingToken);
      await end(store, second, 'interrupted');
      const retry = { ...command('fence-t', 'r2'), messages: [] };
      tokens.push((await store.startRun(retry)).fencingToken);
      await advance(leaseTtlMs + 1);
      expect(await store.findThread('fence-t')).toMatchObject({ status: 'interrupted' });
      const takeover = { ...command('fence-t', 'r2'), instanceId: 'instance-b', messages: [] };
      tokens.push((await store.startRun(takeover)).fencingToken);

      expect(tokens.every((token, i) => i === 0 || token > tokens[i - 1])).toBe(true);
    });
  });
}
