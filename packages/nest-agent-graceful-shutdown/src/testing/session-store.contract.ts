/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { AgentMessage } from '../agent/agent-message.js';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import type { InterruptedState } from '../contracts/interrupted-state.js';
import {
  ThreadBusyError,
  type FinishRunCommand,
  type SessionStore,
  type StartRunCommand,
} from '../contracts/session-store.interface.js';
import { describeRunEndMessages } from './run-end-messages.contract.js';
import { describeFencingTokens } from './fencing-tokens.contract.js';
import { describeRunSlots } from './run-slots.contract.js';
import { describeThreadListing } from './thread-list.contract.js';
import { describeMessagePages } from './message-page.contract.js';
import { describeStepCommits } from './step-commit.contract.js';
import { describeStoredAsSent } from './stored-as-sent.contract.js';

/** A store under test and how to release it. */
export interface SessionStoreFixture {
  store: SessionStore;
  /**
   * For a store that judges lease expiry on its database's clock rather than `settings.now`
   * (as the TypeORM store does): make `ms` milliseconds of that clock pass for the stored
   * leases. The contract calls it, with the same `ms`, each time it moves `settings.now`.
   */
  advanceDatabaseClock?(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** How the contract drives a store: its lease length and a clock the tests move by hand. */
export interface SessionStoreTestSettings {
  leaseTtlMs: number;
  now: () => number;
}

const LEASE_TTL_MS = 10_000;

/** A clock that only moves when told to. */
class ManualClock {
  private time = Date.parse('2025-01-02T03:00:00.000Z');
  readonly now = () => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

const message = (id: string, role: AgentMessage['role'] = 'user'): AgentMessage => ({
  id,
  role,
  content: `content of ${id}`,
});

function startCommand(
  threadId: string,
  runId: string,
  overrides: Partial<StartRunCommand> = {},
): StartRunCommand {
  return {
    threadId,
    ownerId: 'alice',
    runKey: randomUUID(),
    runId,
    instanceId: 'instance-a',
    messages: [message(`${runId}-u`)],
    ...overrides,
  };
}

/** The checkpoint target of the attempt `command` started, at iteration 1, acting. */
export const checkpointTargetOf = (command: StartRunCommand) => ({
  threadId: command.threadId,
  runId: command.runId,
  runKey: command.runKey,
  iteration: 1,
  phase: 'acting' as const,
});

/** The end of the attempt `command` started, interrupted by a shutdown in its acting phase, with `interrupt` as its marker. */
const shutdownEndOf = (
  command: StartRunCommand,
  interrupt: InterruptedState = shutdownMarker(command.runId),
): FinishRunCommand => ({
  threadId: command.threadId,
  runKey: command.runKey,
  status: 'interrupted',
  stopReason: 'interrupted',
  iteration: 1,
  phase: 'acting',
  interrupt,
});

const shutdownMarker = (runId: string): InterruptedState => ({
  reason: 'shutdown',
  interruptedAt: '2025-01-02T03:04:05.000Z',
  runId,
  phase: 'acting',
  iteration: 1,
  pendingToolCalls: [{ id: 'call-1', name: 'search', arguments: '{}', started: false }],
});

/** The optional methods a store under test declares it serves: their cases run, and require them. */
export interface SessionStoreFeatures {
  /** `rollbackRun` (multitask `rollback`). */
  rollback?: boolean;
  /** `enqueueRun`, `findQueuedRuns`, `cancelQueuedRun`, `findStartableQueues` and `startRun`'s `queuedRunId` (multitask `enqueue`). */
  queue?: boolean;
}

/**
 * The behaviour every `SessionStore` must have. Each test gets a fresh, empty store from
 * `makeStore`, so the same suite runs against SQLite, PostgreSQL or any other implementation.
 * The cases of an optional method run when `features` declares it.
 */
export function describeSessionStoreContract(
  name: string,
  makeStore: (settings: SessionStoreTestSettings) => Promise<SessionStoreFixture>,
  features: SessionStoreFeatures = {},
): void {
  describe(`${name} (SessionStore contract)`, () => {
    let fixture: SessionStoreFixture;
    let store: SessionStore;
    let clock: ManualClock;

    beforeEach(async () => {
      clock = new ManualClock();
      fixture = await makeStore({ leaseTtlMs: LEASE_TTL_MS, now: clock.now });
      store = fixture.store;
    });

    afterEach(async () => {
      await fixture.close();
    });

    /** Time passes: for the timestamps the store writes, and for the leases it judges. */
    const advance = async (ms: number) => {
      clock.advance(ms);
      await fixture.advanceDatabaseClock?.(ms);
    };

    it('finds no thread that was never started', async () => {
      await expect(store.findThread('nobody')).resolves.toBeNull();
    });

    it('creates the thread on startRun, owned by the user and running the run', async () => {
      const command = startCommand('t1', 'r1');

      await store.startRun(command);

      const thread = await store.findThread('t1');
      expect(thread).toMatchObject({
        threadId: 't1',
        ownerId: 'alice',
        status: 'running',
        activeRunId: 'r1',
        messageCount: 1,
        interrupt: null,
      });
      expect(thread?.lastRun).toMatchObject({
        key: command.runKey,
        runId: 'r1',
        status: 'running',
        instanceId: 'instance-a',
        endedAt: null,
      });
      await expect(store.loadMessages('t1')).resolves.toMatchObject([
        { id: 'r1-u', role: 'user', seq: 0, runId: 'r1' },
      ]);
    });

    it('refuses a second startRun while the thread has an active run, writing nothing', async () => {
      await store.startRun(startCommand('t1', 'r1'));

      await expect(store.startRun(startCommand('t1', 'r2'))).rejects.toBeInstanceOf(
        ThreadBusyError,
      );
      expect(await store.findThread('t1')).toMatchObject({ activeRunId: 'r1', messageCount: 1 });
      await expect(store.findRun('t1', 'r2')).resolves.toBeNull();
    });

    it("keeps the creator as the owner when another user continues the thread (access is the policy's decision)", async () => {
      await store.startRun(startCommand('t1', 'r1'));
      await store.finishRun({
        threadId: 't1',
        runKey: (await store.findRun('t1', 'r1'))!.key,
        status: 'completed',
        stopReason: 'completed',
        iteration: 1,
        phase: 'reasoning',
        interrupt: null,
      });

      await store.startRun(startCommand('t1', 'r2', { ownerId: 'bob' }));
      expect(await store.findThread('t1')).toMatchObject({
        ownerId: 'alice',
        activeRunId: 'r2',
        messageCount: 2,
      });
    });

    it('appends messages in order, numbering them across calls', async () => {
      const command = startCommand('t1', 'r1');
      await store.startRun(command);
      const target = {
        threadId: 't1',
        runId: 'r1',
        runKey: command.runKey,
        iteration: 1,
        phase: 'reasoning' as const,
      };
      const assistant: AgentMessage = {
        id: 'a1',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'search', arguments: '{"q":1}' }],
      };
      const tool: AgentMessage = { id: 'tool1', role: 'tool', content: 'found', toolCallId: 'c1' };

      await store.appendMessages(target, [assistant]);
      await store.appendMessages({ ...target, phase: 'acting' }, [
        tool,
        message('a2', 'assistant'),
      ]);

      const stored = await store.loadMessages('t1');
      expect(stored.map((m) => [m.id, m.seq])).toEqual([
        ['r1-u', 0],
        ['a1', 1],
        ['tool1', 2],
        ['a2', 3],
      ]);
      expect(stored[1]).toMatchObject({ ...assistant, runId: 'r1' });
      expect(stored[2]).toMatchObject({ ...tool, runId: 'r1' });
      expect(await store.findThread('t1')).toMatchObject({ messageCount: 4 });
      expect(await store.findRun('t1', 'r1')).toMatchObject({ iteration: 1, phase: 'acting' });
    });

    it('marks the thread interrupted with its marker when a run finishes with one', async () => {
      const command = startCommand('t1', 'r1');
      await store.startRun(command);

      await store.finishRun({
        threadId: 't1',
        runKey: command.runKey,
        status: 'interrupted',
        stopReason: 'interrupted',
        iteration: 1,
        phase: 'acting',
        interrupt: shutdownMarker('r1'),
      });

      const thread = await store.findThread('t1');
      expect(thread).toMatchObject({
        status: 'interrupted',
        activeRunId: null,
        interrupt: shutdownMarker('r1'),
      });
      expect(thread?.lastRun).toMatchObject({
        status: 'interrupted',
        stopReason: 'interrupted',
        phase: 'acting',
        endedAt: expect.any(String),
      });
    });

    it('clears the marker and makes the thread idle when a run finishes without one', async () => {
      const first = startCommand('t1', 'r1');
      await store.startRun(first);
      await store.finishRun(shutdownEndOf(first));
      const second = startCommand('t1', 'r2');
      await store.startRun(second);

      await store.finishRun({
        threadId: 't1',
        runKey: second.runKey,
        status: 'completed',
        stopReason: 'completed',
        iteration: 2,
        phase: 'reasoning',
        interrupt: null,
      });

      expect(await store.findThread('t1')).toMatchObject({
        status: 'idle',
        activeRunId: null,
        interrupt: null,
        lastRun: { runId: 'r2', status: 'completed' },
      });
    });

    /** Interrupts run r1, starts it again with the same runId, and expects the retry to be found. */
    const expectRetryFound = async () => {
      const first = startCommand('t1', 'r1');
      await store.startRun(first);
      await store.finishRun({
        threadId: 't1',
        runKey: first.runKey,
        status: 'interrupted',
        stopReason: 'interrupted',
        iteration: 1,
        phase: 'reasoning',
        interrupt: shutdownMarker('r1'),
      });
      const retry = startCommand('t1', 'r1', { messages: [] });

      await store.startRun(retry);

      expect(await store.findRun('t1', 'r1')).toMatchObject({
        key: retry.runKey,
        status: 'running',
      });
    };

    // The test clock stands still, so the retry starts in the same millisecond as the attempt
    // it replaces, as a client's immediate retry can.
    it(
      'returns the latest attempt of a run retried with the same runId, even within the same millisecond',
      expectRetryFound,
    );

    it('reads a thread whose lease expired as interrupted by a crash, with the calls it had started, and frees it', async () => {
      const command = startCommand('t1', 'r1');
      await store.startRun(command);
      await store.recordToolCallStarted(checkpointTargetOf(command), {
        id: 'call-1',
        name: 'search',
        arguments: '{}',
      });

      await advance(LEASE_TTL_MS + 1);

      const thread = await store.findThread('t1');
      expect(thread).toMatchObject({
        status: 'interrupted',
        activeRunId: null,
        interrupt: { reason: 'crash', runId: 'r1', phase: 'acting' },
      });
      expect(thread?.interrupt?.pendingToolCalls).toEqual([
        { id: 'call-1', name: 'search', arguments: '{}', started: true },
      ]);
      expect(await store.findRun('t1', 'r1')).toMatchObject({
        status: 'interrupted',
        stopReason: 'interrupted',
        endedAt: expect.any(String),
      });
      await expect(store.startRun(startCommand('t1', 'r2'))).resolves.toEqual({
        fencingToken: expect.any(Number),
      });
    });

    it('keeps a thread running while its lease is renewed', async () => {
      const command = startCommand('t1', 'r1');
      await store.startRun(command);

      for (let i = 0; i < 3; i++) {
        await advance((LEASE_TTL_MS * 2) / 3);
        await expect(store.renewLeases('instance-a', [command.runKey])).resolves.toEqual([]);
      }

      expect(await store.findThread('t1')).toMatchObject({ status: 'running', activeRunId: 'r1' });
    });

    it('sweeps runs whose lease expired and leaves the ones still held', async () => {
      const stale = startCommand('t1', 'r1', { instanceId: 'instance-a' });
      await store.startRun(stale);
      await advance(LEASE_TTL_MS / 2);
      await store.startRun(startCommand('t2', 'r1', { instanceId: 'instance-b' }));
      await advance(LEASE_TTL_MS / 2 + 1);

      await expect(store.recoverCrashedRuns()).resolves.toBe(1);

      expect(await store.findThread('t1')).toMatchObject({
        status: 'interrupted',
        interrupt: { reason: 'crash' },
      });
      expect(await store.findThread('t2')).toMatchObject({ status: 'running', activeRunId: 'r1' });
    });

    it("sweeps every other instance's runs at once for an exclusive owner, and none of its own", async () => {
      await store.startRun(startCommand('t1', 'r1', { instanceId: 'instance-a' }));
      await store.startRun(startCommand('t2', 'r1', { instanceId: 'instance-b' }));

      await expect(store.recoverCrashedRuns({ exclusiveInstanceId: 'instance-a' })).resolves.toBe(
        1,
      );

      expect(await store.findThread('t1')).toMatchObject({ status: 'running', activeRunId: 'r1' });
      expect(await store.findThread('t2')).toMatchObject({
        status: 'interrupted',
        activeRunId: null,
        interrupt: { reason: 'crash' },
      });
    });

    it('never sweeps a run whose lease the caller still renews, even once it expired', async () => {
      const own = startCommand('t1', 'r1');
      await store.startRun(own);
      await store.startRun(startCommand('t2', 'r1'));
      await advance(LEASE_TTL_MS + 1);

      await expect(store.recoverCrashedRuns({ exceptRunKeys: [own.runKey] })).resolves.toBe(1);

      await expect(store.renewLeases('instance-a', [own.runKey])).resolves.toEqual([]);
      expect(await store.findThread('t1')).toMatchObject({ status: 'running', activeRunId: 'r1' });
    });

    it('records the name of the agent a run was started with', async () => {
      await store.startRun({ ...startCommand('t1', 'r1'), agentName: 'researcher' });

      expect(await store.findRun('t1', 'r1')).toMatchObject({ agentName: 'researcher' });
    });

    it('ends a pause for approval on a cancel: the answers appended, the run canceled, the thread idle without a marker', async () => {
      const first = startCommand('t1', 'r1');
      await store.startRun(first);
      const call = { id: 'c1', name: 'refund', arguments: '{}' };
      await store.appendMessages(checkpointTargetOf(first), [
        { id: 'a1', role: 'assistant', content: '', toolCalls: [call] },
      ]);
      await store.finishRun({
        ...shutdownEndOf(first, { ...shutdownMarker('r1'), reason: 'approval' }),
        stopReason: 'awaiting_approval',
      });
      const answer: AgentMessage = {
        id: 'c1-canceled',
        role: 'tool',
        content: 'canceled',
        toolCallId: 'c1',
      };

      await expect(
        store.cancelApproval({
          threadId: 't1',
          runKey: first.runKey,
          closingMessages: { runId: 'r1', messages: [answer] },
        }),
      ).resolves.toBe(true);

      expect(await store.findThread('t1')).toMatchObject({
        status: 'idle',
        interrupt: null,
        messageCount: 3,
        lastRun: { status: 'canceled' },
      });
      expect((await store.loadMessages('t1')).at(-1)).toMatchObject({
        id: 'c1-canceled',
        toolCallId: 'c1',
        runId: 'r1',
      });
    });

    it('writes nothing on a cancel of a pause for approval that has ended', async () => {
      const first = startCommand('t1', 'r1');
      await store.startRun(first);
      await store.finishRun(shutdownEndOf(first));
      const answer: AgentMessage = {
        id: 'late',
        role: 'tool',
        content: 'canceled',
        toolCallId: 'c1',
      };

      await expect(
        store.cancelApproval({
          threadId: 't1',
          runKey: first.runKey,
          closingMessages: { runId: 'r1', messages: [answer] },
        }),
      ).resolves.toBe(false);

      expect(await store.findThread('t1')).toMatchObject({
        status: 'interrupted',
        messageCount: 1,
      });
    });

    if (features.rollback) {
      it('rolls back the last run: its messages and tool records removed, the thread as before it and idle', async () => {
        const first = startCommand('t1', 'r1');
        await store.startRun(first);
        await store.finishRun({
          ...shutdownEndOf(first),
          status: 'completed',
          stopReason: 'completed',
          interrupt: null,
        });
        const second = startCommand('t1', 'r2');
        await store.startRun(second);
        const call = { id: 'c2', name: 'refund', arguments: '{"order":7}' };
        await store.appendMessages(checkpointTargetOf(second), [
          { id: 'a2', role: 'assistant', content: '', toolCalls: [call] },
        ]);
        await store.recordToolCallStarted(checkpointTargetOf(second), call);
        await store.appendMessages(checkpointTargetOf(second), [
          { id: 'c2-result', role: 'tool', content: 'refunded', toolCallId: 'c2' },
        ]);
        await store.finishRun({
          ...shutdownEndOf(second),
          status: 'canceled',
          stopReason: 'canceled',
          interrupt: null,
        });

        const rolled = await store.rollbackRun!({
          threadId: 't1',
          runKey: second.runKey,
          runId: 'r2',
        });

        expect(rolled).toMatchObject({
          runId: 'r2',
          messageIds: ['r2-u', 'a2', 'c2-result'],
          toolCalls: [
            expect.objectContaining({ toolCallId: 'c2', status: 'finished', result: 'refunded' }),
          ],
        });
        expect((await store.loadMessages('t1')).map((m) => m.id)).toEqual(['r1-u']);
        expect(await store.findToolCalls('t1', ['c2'])).toEqual([]);
        expect(await store.findThread('t1')).toMatchObject({
          status: 'idle',
          messageCount: 1,
          activeRunId: null,
        });
        await store.startRun({ ...startCommand('t1', 'r3'), expectedLastRunKey: second.runKey });
        expect((await store.loadMessages('t1')).map((m) => [m.id, m.seq])).toEqual([
          ['r1-u', 0],
          ['r3-u', 1],
        ]);
      });

      it('rolls back nothing while the run is active, or once another run followed it', async () => {
        const first = startCommand('t1', 'r1');
        await store.startRun(first);

        await expect(
          store.rollbackRun!({ threadId: 't1', runKey: first.runKey, runId: 'r1' }),
        ).resolves.toBeNull();
        await store.finishRun({
          ...shutdownEndOf(first),
          status: 'completed',
          stopReason: 'completed',
          interrupt: null,
        });
        await store.startRun({ ...startCommand('t1', 'r2'), expectedLastRunKey: first.runKey });
        await expect(
          store.rollbackRun!({ threadId: 't1', runKey: first.runKey, runId: 'r1' }),
        ).resolves.toBeNull();

        expect((await store.loadMessages('t1')).map((m) => m.id)).toEqual(['r1-u', 'r2-u']);
      });
    }

    if (features.queue) {
      const queued = (runId: string) => ({
        threadId: 't1',
        runId,
        ownerId: 'alice',
        agentName: 'support',
        input: { userMessages: [{ id: `${runId}-u`, content: `input of ${runId}` }], resume: [] },
      });

      it('queues runs in arrival order, counted on the thread, and answers a repeated enqueue as it is', async () => {
        await store.startRun(startCommand('t1', 'r1'));

        const second = await store.enqueueRun!(queued('r2'));
        const third = await store.enqueueRun!(queued('r3'));
        const again = await store.enqueueRun!(queued('r2'));

        expect(second).toMatchObject({ ...queued('r2'), position: 1 });
        expect(third).toMatchObject({ runId: 'r3', position: 2 });
        expect(again).toMatchObject({ runId: 'r2', position: 1, enqueuedAt: second!.enqueuedAt });
        expect((await store.findQueuedRuns!('t1')).map((run) => [run.runId, run.position])).toEqual(
          [
            ['r2', 1],
            ['r3', 2],
          ],
        );
        expect(await store.findThread('t1')).toMatchObject({ activeRunId: 'r1', queuedRuns: 2 });
        await expect(
          store.enqueueRun!({ ...queued('r9'), threadId: 'nobody' }),
        ).resolves.toBeNull();
      });

      it('starts a queued run once: its start takes it off the queue, and a second start is refused writing nothing', async () => {
        const first = startCommand('t1', 'r1');
        await store.startRun(first);
        await store.enqueueRun!(queued('r2'));
        await store.finishRun({
          ...shutdownEndOf(first),
          status: 'completed',
          stopReason: 'completed',
          interrupt: null,
        });
        expect(await store.findStartableQueues!(10)).toEqual(['t1']);

        const start = {
          ...startCommand('t1', 'r2'),
          expectedLastRunKey: first.runKey,
          queuedRunId: 'r2',
        };
        await store.startRun(start);

        expect(await store.findQueuedRuns!('t1')).toEqual([]);
        expect(await store.findThread('t1')).toMatchObject({ activeRunId: 'r2', queuedRuns: 0 });
        expect(await store.findStartableQueues!(10)).toEqual([]);
        await store.finishRun({
          ...shutdownEndOf(start),
          status: 'completed',
          stopReason: 'completed',
          interrupt: null,
        });
        await expect(
          store.startRun({ ...start, runKey: 'other-key', expectedLastRunKey: start.runKey }),
        ).rejects.toBeInstanceOf(ThreadBusyError);
        expect(await store.findThread('t1')).toMatchObject({
          activeRunId: null,
          lastRun: expect.objectContaining({ key: start.runKey }),
        });
      });

      it('cancels a queued run once, and lists a queue as startable only when nothing holds its thread back', async () => {
        const first = startCommand('t1', 'r1');
        await store.startRun(first);
        await store.enqueueRun!(queued('r2'));
        await store.enqueueRun!(queued('r3'));
        expect(await store.findStartableQueues!(10)).toEqual([]);

        await expect(store.cancelQueuedRun!('t1', 'r2')).resolves.toBe(true);
        await expect(store.cancelQueuedRun!('t1', 'r2')).resolves.toBe(false);

        expect((await store.findQueuedRuns!('t1')).map((run) => [run.runId, run.position])).toEqual(
          [['r3', 1]],
        );
        expect(await store.findThread('t1')).toMatchObject({ queuedRuns: 1 });
        await store.finishRun({
          ...shutdownEndOf(first, { ...shutdownMarker('r1'), reason: 'approval' }),
          stopReason: 'awaiting_approval',
        });
        expect((await store.findThread('t1'))?.status).toBe('awaiting_approval');
        expect(await store.findStartableQueues!(10)).toEqual([]);
      });
    }

    it('records the release of the agent a run attempt was started with', async () => {
      await store.startRun({
        ...startCommand('t1', 'r1'),
        agentRelease: { version: '2.0.0', fingerprint: '0123456789abcdef' },
      });

      expect(await store.findRun('t1', 'r1')).toMatchObject({
        agentVersion: '2.0.0',
        agentFingerprint: '0123456789abcdef',
      });
      expect((await store.findThread('t1'))?.lastRun).toMatchObject({
        agentVersion: '2.0.0',
        agentFingerprint: '0123456789abcdef',
      });
    });

    it('keeps the release of the agent in the interrupt marker', async () => {
      const command = startCommand('t1', 'r1');
      await store.startRun(command);
      const marker = {
        ...shutdownMarker('r1'),
        agentVersion: '1.0.0',
        agentFingerprint: 'fedcba9876543210',
      };

      await store.finishRun(shutdownEndOf(command, marker));

      expect((await store.findThread('t1'))?.interrupt).toMatchObject({
        agentVersion: '1.0.0',
        agentFingerprint: 'fedcba9876543210',
      });
    });

    it('records the calls a resume answered without running them as not_run, with their answer', async () => {
      const call = { id: 'c1', name: 'charge_card', arguments: '{"amount":10}' };
      const result =
        'not run: the tool "charge_card" no longer exists in release 2.0.0 of the agent.';
      const answer: AgentMessage = {
        id: 'c1-result',
        role: 'tool',
        content: result,
        toolCallId: 'c1',
      };

      await store.startRun({
        ...startCommand('t1', 'r1'),
        messages: [answer],
        notRunToolCalls: [{ call, reason: 'tool_removed', result }],
      });

      expect(await store.findToolCalls('t1', ['c1'])).toEqual([
        expect.objectContaining({
          toolCallId: 'c1',
          toolName: 'charge_card',
          status: 'not_run',
          result,
        }),
      ]);
    });

    it('turns the started record of a call a resume did not run into not_run', async () => {
      const first = startCommand('t1', 'r1');
      await store.startRun(first);
      const call = { id: 'c1', name: 'charge_card', arguments: '{}' };
      await store.appendMessages(checkpointTargetOf(first), [
        { id: 'a1', role: 'assistant', content: '', toolCalls: [call] },
      ]);
      await store.recordToolCallStarted(checkpointTargetOf(first), call);
      await store.finishRun(shutdownEndOf(first));
      const result = 'not run: the arguments of this call do not fit';

      await store.startRun({
        ...startCommand('t1', 'r1'),
        messages: [],
        notRunToolCalls: [{ call, reason: 'invalid_arguments', result }],
      });

      expect(await store.findToolCalls('t1', ['c1'])).toEqual([
        expect.objectContaining({ status: 'not_run', result }),
      ]);
    });

    it('lists the threads interrupted by a shutdown or a crash, longest waiting first, and not those paused for approval', async () => {
      const end = async (threadId: string, interrupt: InterruptedState | null) => {
        const command = startCommand(threadId, 'r1');
        await store.startRun(command);
        await store.finishRun({
          threadId,
          runKey: command.runKey,
          status: 'interrupted',
          stopReason: 'interrupted',
          iteration: 1,
          phase: 'acting',
          interrupt,
        });
        await advance(10);
      };
      await end('t-shutdown', shutdownMarker('r1'));
      await end('t-approval', { ...shutdownMarker('r1'), reason: 'approval' });
      await end('t-idle', null);
      await store.startRun(startCommand('t-crash', 'r1'));
      await advance(LEASE_TTL_MS + 1);
      await store.recoverCrashedRuns();

      await expect(store.findInterruptedThreads!(10)).resolves.toEqual(['t-shutdown', 't-crash']);
      await expect(store.findInterruptedThreads!(1)).resolves.toEqual(['t-shutdown']);
    });

    /** Run r1 loses its lease; instance-b takes the thread over with run r2. */
    const takeOver = async () => {
      const old = startCommand('t1', 'r1', { instanceId: 'instance-a' });
      await store.startRun(old);
      await advance(LEASE_TTL_MS + 1);
      const thread = await store.findThread('t1');
      const newer = startCommand('t1', 'r2', {
        instanceId: 'instance-b',
        expectedLastRunKey: thread?.lastRun?.key ?? null,
      });
      await store.startRun(newer);
      return { old, newer };
    };

    it('refuses the checkpoint of a run whose lease was taken over, writing nothing', async () => {
      const { old } = await takeOver();
      const before = await store.loadMessages('t1');

      await expect(
        store.appendMessages(checkpointTargetOf(old), [message('late', 'assistant')]),
      ).rejects.toBeInstanceOf(LeaseLostError);
      await expect(
        store.recordToolCallStarted(checkpointTargetOf(old), {
          id: 'late-call',
          name: 'search',
          arguments: '{}',
        }),
      ).rejects.toBeInstanceOf(LeaseLostError);

      expect(await store.loadMessages('t1')).toEqual(before);
      expect(await store.findToolCalls('t1', ['late-call'])).toEqual([]);
      expect(await store.findThread('t1')).toMatchObject({ status: 'running', activeRunId: 'r2' });
    });

    it("keeps an agent framework's state on the thread across runs, and clears it with null", async () => {
      const first = startCommand('t1', 'r1');
      await store.startRun(first);
      await store.saveRunState(checkpointTargetOf(first), { channel: { step: 3 } });
      await store.finishRun({
        threadId: 't1',
        runKey: first.runKey,
        status: 'completed',
        stopReason: 'completed',
        iteration: 1,
        phase: 'reasoning',
        interrupt: null,
      });
      expect((await store.findThread('t1'))?.runState).toEqual({ channel: { step: 3 } });

      const second = startCommand('t1', 'r2', { messages: [] });
      await store.startRun(second);
      await store.saveRunState(checkpointTargetOf(second), null);

      expect((await store.findThread('t1'))?.runState).toBeNull();
    });

    it('refuses the state of a run whose lease was taken over, writing nothing', async () => {
      const { old } = await takeOver();

      await expect(
        store.saveRunState(checkpointTargetOf(old), { late: true }),
      ).rejects.toBeInstanceOf(LeaseLostError);

      expect((await store.findThread('t1'))?.runState).toBeNull();
    });

    it('refuses to finish a run whose lease was taken over, leaving the newer run active', async () => {
      const { old } = await takeOver();

      await expect(
        store.finishRun({
          threadId: 't1',
          runKey: old.runKey,
          status: 'completed',
          stopReason: 'completed',
          iteration: 1,
          phase: 'reasoning',
          interrupt: null,
        }),
      ).rejects.toBeInstanceOf(LeaseLostError);

      expect(await store.findThread('t1')).toMatchObject({ status: 'running', activeRunId: 'r2' });
    });

    it('reports a taken-over lease as lost on renewal', async () => {
      const { old, newer } = await takeOver();

      await expect(store.renewLeases('instance-a', [old.runKey])).resolves.toEqual([old.runKey]);
      await expect(store.renewLeases('instance-b', [newer.runKey])).resolves.toEqual([]);
    });

    it("refuses startRun planned from a run that is no longer the thread's last, writing nothing", async () => {
      const first = startCommand('t1', 'r1');
      await store.startRun(first);
      await store.finishRun(shutdownEndOf(first));
      const winner = startCommand('t1', 'r2', { expectedLastRunKey: first.runKey });
      await store.startRun(winner);
      await store.finishRun({
        threadId: 't1',
        runKey: winner.runKey,
        status: 'completed',
        stopReason: 'completed',
        iteration: 1,
        phase: 'reasoning',
        interrupt: null,
      });

      await expect(
        store.startRun(startCommand('t1', 'r3', { expectedLastRunKey: first.runKey })),
      ).rejects.toBeInstanceOf(ThreadBusyError);

      await expect(store.findRun('t1', 'r3')).resolves.toBeNull();
      expect(await store.findThread('t1')).toMatchObject({
        messageCount: 2,
        lastRun: { runId: 'r2' },
      });
    });

    it('records a tool call as started, then finished with its result when its tool message is checkpointed', async () => {
      const command = startCommand('t1', 'r1');
      await store.startRun(command);
      const [a, b] = [
        { id: 'call-a', name: 'search', arguments: '{"q":1}' },
        { id: 'call-b', name: 'search', arguments: '{"q":2}' },
      ];
      await store.recordToolCallStarted(checkpointTargetOf(command), a);
      await store.recordToolCallStarted(checkpointTargetOf(command), b);

      await store.appendMessages(checkpointTargetOf(command), [
        { id: 'tool-a', role: 'tool', content: 'found a', toolCallId: 'call-a' },
      ]);

      const records = await store.findToolCalls('t1', ['call-a', 'call-b', 'call-c']);
      expect(records.sort((x, y) => x.toolCallId.localeCompare(y.toolCallId))).toMatchObject([
        {
          toolCallId: 'call-a',
          toolName: 'search',
          arguments: '{"q":1}',
          status: 'finished',
          result: 'found a',
          finishedAt: expect.any(String),
        },
        { toolCallId: 'call-b', status: 'started', result: null, finishedAt: null },
      ]);
    });

    it('keeps every message of 50 concurrent appends on different threads', async () => {
      const threads = Array.from({ length: 50 }, (_, i) => `thread-${i}`);
      const commands = threads.map((threadId) =>
        startCommand(threadId, 'r1', { messages: [message(`${threadId}-u`)] }),
      );
      await Promise.all(commands.map((command) => store.startRun(command)));

      await Promise.all(
        commands.map((c) =>
          store.appendMessages(
            {
              threadId: c.threadId,
              runId: 'r1',
              runKey: c.runKey,
              iteration: 1,
              phase: 'reasoning',
            },
            [message(`${c.threadId}-a`, 'assistant')],
          ),
        ),
      );

      const histories = await Promise.all(threads.map((threadId) => store.loadMessages(threadId)));
      expect(histories.map((h) => h.map((m) => m.id))).toEqual(
        threads.map((t) => [`${t}-u`, `${t}-a`]),
      );
    });

    describeThreadListing(() => ({ store, advance, leaseTtlMs: LEASE_TTL_MS }));
    describeMessagePages(() => ({ store }));
    describeRunSlots(() => ({ store, advance, leaseTtlMs: LEASE_TTL_MS }));
    describeRunEndMessages(() => ({ store, advance, leaseTtlMs: LEASE_TTL_MS }));
    describeFencingTokens(() => ({ store, advance, leaseTtlMs: LEASE_TTL_MS }));
    describeStepCommits(() => ({ store, advance, leaseTtlMs: LEASE_TTL_MS }));
    describeStoredAsSent(() => ({ store }));
  });
}
