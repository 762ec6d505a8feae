/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { LeaseLostError } from '../errors/lease-lost.error.js';
import type { InterruptedState } from '../contracts/interrupted-state.js';
import { alreadyFinished } from './finished-run-rows.js';
import type { FinishRunCommand, StartRunCommand } from '../contracts/session-store.interface.js';
import type { TypeOrmSessionStore, TypeOrmSessionStoreOptions } from './typeorm-session.store.js';

/** A store on a fresh database, its data source, and how to release both. */
export interface BatchStoreFixture {
  store: TypeOrmSessionStore;
  dataSource: DataSource;
  close(): Promise<void>;
}

const marker = (runId: string): InterruptedState => ({
  reason: 'shutdown',
  interruptedAt: '2025-01-02T03:04:05.000Z',
  runId,
  phase: 'reasoning',
  iteration: 2,
  pendingToolCalls: [],
});

const started = (threadId: string, instanceId = 'instance-a'): StartRunCommand => ({
  threadId,
  ownerId: 'alice',
  runKey: randomUUID(),
  runId: `run-of-${threadId}`,
  instanceId,
  messages: [],
});

const interrupted = (run: StartRunCommand): FinishRunCommand => ({
  threadId: run.threadId,
  runKey: run.runKey,
  status: 'interrupted',
  stopReason: 'interrupted',
  iteration: 2,
  phase: 'reasoning',
  errorCode: 'RUN_INTERRUPTED',
  errorMessage: 'stopped by shutdown',
  usage: { promptTokens: 11, completionTokens: 7, totalTokens: 18 },
  interrupt: marker(run.runId),
});

/**
 * How `finishRun` groups run ends: the same behaviour on every database the TypeORM store
 * supports. The clock moves one millisecond per reading, so runs saved in one transaction
 * (one reading of the clock) share their `ended_at`, and runs saved apart do not.
 */
export function describeFinishRunBatching(
  name: string,
  open: (options: TypeOrmSessionStoreOptions) => Promise<BatchStoreFixture>,
): void {
  describe(`${name}: run ends saved in batches`, () => {
    let fixture: BatchStoreFixture;
    let time = Date.parse('2025-01-02T03:00:00.000Z');
    const now = () => time++;

    beforeEach(async () => {
      fixture = await open({ now, leaseTtlMs: 10_000 });
    });

    afterEach(async () => {
      await fixture.close();
    });

    const startAll = async (count: number) => {
      const runs = Array.from({ length: count }, (_, i) => started(`thread-${i}`));
      for (const run of runs) await fixture.store.startRun(run);
      return runs;
    };

    it('saves runs that end in the same tick in one transaction, each with its marker, usage and error', async () => {
      const runs = await startAll(50);

      await Promise.all(runs.map((run) => fixture.store.finishRun(interrupted(run))));

      const threads = await Promise.all(runs.map((run) => fixture.store.findThread(run.threadId)));
      expect(
        threads.every(
          (t) =>
            t?.status === 'interrupted' &&
            t.activeRunId === null &&
            t.interrupt?.runId === `run-of-${t.threadId}`,
        ),
      ).toBe(true);
      expect(threads[7]?.lastRun).toMatchObject({
        status: 'interrupted',
        errorCode: 'RUN_INTERRUPTED',
        usage: { promptTokens: 11, completionTokens: 7 },
      });
      expect(new Set(threads.map((t) => t?.lastRun?.endedAt)).size).toBe(1);
    });

    it('rejects only the run whose lease was taken over, and saves the others of its batch', async () => {
      const [kept, lost] = await startAll(2);
      await fixture.dataSource.query(
        `UPDATE agent_threads SET last_run_key = 'newer-attempt' WHERE thread_id = '${lost.threadId}'`,
      );

      const results = await Promise.allSettled([
        fixture.store.finishRun(interrupted(kept)),
        fixture.store.finishRun(interrupted(lost)),
      ]);

      expect(results[0]).toEqual({ status: 'fulfilled', value: undefined });
      expect(results[1]).toMatchObject({ status: 'rejected', reason: expect.any(LeaseLostError) });
      expect(await fixture.store.findThread(kept.threadId)).toMatchObject({
        status: 'interrupted',
        activeRunId: null,
      });
      expect(await fixture.store.findThread(lost.threadId)).toMatchObject({
        status: 'running',
        activeRunId: lost.runId,
        interrupt: null,
      });
      expect((await fixture.store.findRun(lost.threadId, lost.runId))?.endedAt).toBeNull();
    });

    it('finds every run of a committed batch already ended, so a retry after a lost answer writes nothing again', async () => {
      const runs = await startAll(3);
      await Promise.all(runs.map((run) => fixture.store.finishRun(interrupted(run))));

      const postgres = fixture.dataSource.options.type === 'postgres';
      const done = await alreadyFinished(fixture.dataSource.manager, postgres, [
        ...runs.map((run) => run.runKey),
        'never-started',
      ]);

      expect([...done].sort()).toEqual(runs.map((run) => run.runKey).sort());
    });
  });
}
