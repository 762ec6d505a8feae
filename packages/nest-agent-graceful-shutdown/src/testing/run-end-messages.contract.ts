/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { AgentMessage } from '../agent/agent-message.js';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import type {
  FinishRunCommand,
  SessionStore,
  StartRunCommand,
} from '../contracts/session-store.interface.js';

/** What the run-end message cases need from the enclosing contract: the store of the test and its clock. */
export interface RunEndMessagesContext {
  store: SessionStore;
  /** Moves the store's clock (and its database's, for leases) forward, in milliseconds. */
  advance(ms: number): Promise<void> | void;
  /** The store's lease length, in milliseconds. */
  leaseTtlMs: number;
}

const call = { id: 'call-cut', name: 'search', arguments: '{"q":1}' };
const assistant: AgentMessage = { id: 'a-cut', role: 'assistant', content: '', toolCalls: [call] };
const closing: AgentMessage = {
  id: 'closing-1',
  role: 'tool',
  toolCallId: call.id,
  content: 'not completed',
};

/**
 * `FinishRunCommand.closingMessages`: the results of the calls a run cut off are appended in
 * the end's own transaction, or not at all. Runs inside `describeSessionStoreContract`.
 */
export function describeRunEndMessages(context: () => RunEndMessagesContext): void {
  describe('finishRun with closingMessages', () => {
    const start = (
      threadId: string,
      runId: string,
      instanceId = 'instance-a',
    ): StartRunCommand => ({
      threadId,
      ownerId: 'alice',
      runKey: randomUUID(),
      runId,
      instanceId,
      messages: [{ id: `${runId}-u`, role: 'user', content: 'hi' }],
    });
    const canceled = (command: StartRunCommand): FinishRunCommand => ({
      threadId: command.threadId,
      runKey: command.runKey,
      status: 'canceled',
      stopReason: 'canceled',
      iteration: 1,
      phase: 'acting',
      interrupt: null,
      closingMessages: { runId: command.runId, messages: [closing] },
    });
    const checkpoint = (command: StartRunCommand) =>
      context().store.appendMessages(
        {
          threadId: command.threadId,
          runId: command.runId,
          runKey: command.runKey,
          iteration: 1,
          phase: 'acting',
        },
        [assistant],
      );

    it('appends the closing messages after the history, under the run, with the end', async () => {
      const { store } = context();
      const command = start('end-1', 'r1');
      await store.startRun(command);
      await checkpoint(command);

      await store.finishRun(canceled(command));

      const stored = await store.loadMessages('end-1');
      expect(stored.map((m) => [m.id, m.seq])).toEqual([
        ['r1-u', 0],
        ['a-cut', 1],
        ['closing-1', 2],
      ]);
      expect(stored[2]).toMatchObject({
        role: 'tool',
        toolCallId: call.id,
        content: 'not completed',
        runId: 'r1',
      });
      expect(await store.findThread('end-1')).toMatchObject({
        status: 'idle',
        messageCount: 3,
        lastRun: { status: 'canceled' },
      });
    });

    it('keeps counting messages after the closing ones on the next run', async () => {
      const { store } = context();
      const first = start('end-2', 'r1');
      await store.startRun(first);
      await checkpoint(first);
      await store.finishRun(canceled(first));

      await store.startRun(start('end-2', 'r2'));

      expect((await store.loadMessages('end-2')).map((m) => m.seq)).toEqual([0, 1, 2, 3]);
      expect(await store.findThread('end-2')).toMatchObject({ messageCount: 4 });
    });

    it('writes no closing message for a run whose lease was taken over', async () => {
      const { store, advance, leaseTtlMs } = context();
      const old = start('end-3', 'r1');
      await store.startRun(old);
      await checkpoint(old);
      await advance(leaseTtlMs + 1);
      await store.findThread('end-3');
      await store.startRun(start('end-3', 'r2', 'instance-b'));
      const before = await store.loadMessages('end-3');

      await expect(store.finishRun(canceled(old))).rejects.toBeInstanceOf(LeaseLostError);

      expect(await store.loadMessages('end-3')).toEqual(before);
    });
  });
}
