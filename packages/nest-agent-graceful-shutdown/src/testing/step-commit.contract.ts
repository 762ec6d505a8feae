/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { AgentMessage } from '../agent/agent-message.js';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import type { CheckpointTarget, StartRunCommand } from '../contracts/session-store.interface.js';
import type { StepCommit } from '../contracts/step-commit.js';
import { commitStepThrough } from '../session/commit-step-through.js';
import type { RunSlotsContext } from './run-slots.contract.js';

/**
 * `commitStep`: a finished step's messages, started tool calls and framework state in one
 * fenced write, in order, one caller's refusal not failing another's. Runs inside
 * `describeSessionStoreContract`, against each store; a store without `commitStep` is held to
 * the same through its older methods.
 */
export function describeStepCommits(context: () => RunSlotsContext): void {
  describe('commitStep', () => {
    const command = (
      threadId: string,
      runId = 'r1',
      instanceId = 'instance-a',
    ): StartRunCommand => ({
      threadId,
      ownerId: 'alice',
      runKey: randomUUID(),
      runId,
      instanceId,
      messages: [{ id: `${threadId}-${runId}-u`, role: 'user', content: 'hi' }],
    });
    const targetOf = (started: StartRunCommand, iteration = 1): CheckpointTarget => ({
      threadId: started.threadId,
      runId: started.runId,
      runKey: started.runKey,
      iteration,
      phase: 'acting',
    });
    const commit = (started: StartRunCommand, step: StepCommit, iteration = 1) =>
      commitStepThrough(context().store, targetOf(started, iteration), step);
    const assistant = (id: string, callId: string): AgentMessage => ({
      id,
      role: 'assistant',
      content: '',
      toolCalls: [{ id: callId, name: 'search', arguments: '{}' }],
    });

    it("writes a step's messages, started calls and state together, and records the run's progress", async () => {
      const { store } = context();
      const started = command('step-all');
      await store.startRun(started);

      await commit(
        started,
        {
          messages: [assistant('a1', 'call-1')],
          startedCalls: [{ id: 'call-1', name: 'search', arguments: '{}' }],
          state: { at: 1 },
        },
        2,
      );

      expect((await store.loadMessages('step-all')).map((m) => [m.id, m.seq])).toEqual([
        ['step-all-r1-u', 0],
        ['a1', 1],
      ]);
      expect(await store.findToolCalls('step-all', ['call-1'])).toMatchObject([
        { status: 'started', runKey: started.runKey },
      ]);
      expect(await store.findThread('step-all')).toMatchObject({
        messageCount: 2,
        runState: { at: 1 },
      });
      expect(await store.findRun('step-all', 'r1')).toMatchObject({
        iteration: 2,
        phase: 'acting',
      });
    });

    it('finishes, with the tool message of a later step, the call an earlier step started', async () => {
      const { store } = context();
      const started = command('step-finish');
      await store.startRun(started);
      await commit(started, {
        messages: [assistant('a1', 'call-1')],
        startedCalls: [{ id: 'call-1', name: 'search', arguments: '{}' }],
      });

      await commit(started, {
        messages: [{ id: 't1', role: 'tool', content: 'found', toolCallId: 'call-1' }],
      });

      expect(await store.findToolCalls('step-finish', ['call-1'])).toMatchObject([
        { status: 'finished', result: 'found' },
      ]);
    });

    it('keeps the saved state when a step has none, and clears it with null', async () => {
      const { store } = context();
      const started = command('step-state');
      await store.startRun(started);
      await commit(started, { state: { at: 1 } });

      await commit(started, { messages: [assistant('a1', 'call-1')] });
      expect((await store.findThread('step-state'))?.runState).toEqual({ at: 1 });

      await commit(started, { state: null });
      expect((await store.findThread('step-state'))?.runState).toBeNull();
    });

    it('extends the lease: a run that commits steps is not taken for a crash', async () => {
      const { store, advance, leaseTtlMs } = context();
      const started = command('step-lease');
      await store.startRun(started);
      await advance(leaseTtlMs - 1_000);

      await commit(started, { messages: [assistant('a1', 'call-1')] });
      await advance(leaseTtlMs - 1_000);

      expect(await store.findThread('step-lease')).toMatchObject({
        status: 'running',
        activeRunId: 'r1',
      });
    });

    it('refuses the step of a run whose lease was taken over, writing none of it', async () => {
      const { store, advance, leaseTtlMs } = context();
      const old = command('step-fenced');
      await store.startRun(old);
      await advance(leaseTtlMs + 1);
      const thread = await store.findThread('step-fenced');
      await store.startRun({
        ...command('step-fenced', 'r2', 'instance-b'),
        messages: [],
        expectedLastRunKey: thread?.lastRun?.key ?? null,
      });

      await expect(
        commit(old, {
          messages: [assistant('late', 'late-call')],
          startedCalls: [{ id: 'late-call', name: 'search', arguments: '{}' }],
          state: { late: true },
        }),
      ).rejects.toBeInstanceOf(LeaseLostError);

      expect((await store.loadMessages('step-fenced')).map((m) => m.id)).toEqual([
        'step-fenced-r1-u',
      ]);
      expect(await store.findToolCalls('step-fenced', ['late-call'])).toEqual([]);
      expect(await store.findThread('step-fenced')).toMatchObject({
        activeRunId: 'r2',
        runState: null,
        messageCount: 1,
      });
    });

    it("commits the other runs' steps when one run's step, sent with them, is refused", async () => {
      const { store, advance, leaseTtlMs } = context();
      const old = command('step-mixed-stale');
      await store.startRun(old);
      await advance(leaseTtlMs + 1);
      await store.findThread('step-mixed-stale');
      await store.startRun({
        ...command('step-mixed-stale', 'r2', 'instance-b'),
        messages: [],
        expectedLastRunKey: old.runKey,
      });
      const live = Array.from({ length: 5 }, (_, i) => command(`step-mixed-${i}`));
      await Promise.all(live.map((started) => store.startRun(started)));

      const results = await Promise.allSettled([
        ...live.map((started) =>
          commit(started, {
            messages: [assistant(`${started.threadId}-a`, `${started.threadId}-c`)],
          }),
        ),
        commit(old, { messages: [assistant('late', 'late-call')] }),
      ]);

      expect(results.map((r) => r.status)).toEqual([...live.map(() => 'fulfilled'), 'rejected']);
      expect((results[5] as PromiseRejectedResult).reason).toBeInstanceOf(LeaseLostError);
      const histories = await Promise.all(
        live.map((started) => store.loadMessages(started.threadId)),
      );
      expect(histories.map((h) => h.length)).toEqual(live.map(() => 2));
    });

    it('keeps the order of the steps of one run sent at once, numbering their messages without gaps', async () => {
      const { store } = context();
      const started = command('step-order');
      await store.startRun(started);

      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          commit(started, {
            messages: [
              assistant(`a${i}`, `c${i}`),
              { id: `t${i}`, role: 'tool', content: `r${i}`, toolCallId: `c${i}` },
            ],
          }),
        ),
      );

      const stored = await store.loadMessages('step-order');
      expect(stored.map((m) => m.id)).toEqual([
        'step-order-r1-u',
        ...Array.from({ length: 6 }, (_, i) => [`a${i}`, `t${i}`]).flat(),
      ]);
      expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i));
      expect(await store.findThread('step-order')).toMatchObject({ messageCount: 13 });
    });
  });
}
