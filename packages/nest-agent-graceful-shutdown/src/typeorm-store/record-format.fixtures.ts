/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import { NewerRecordFormatError } from '../errors/newer-record-format.error.js';
import type { OpenedStore } from './database-lease-clock.fixtures.js';
import { ThreadEntity } from './entities/thread.entity.js';
import { advanceLeaseClock } from './lease-clock.fixtures.js';
import { RECORD_FORMAT_VERSION } from './record-format.js';
import type { StartRunCommand } from '../contracts/session-store.interface.js';
import type { TypeOrmSessionStoreOptions } from './typeorm-session.store.js';

const LEASE_TTL_MS = 10_000;
const NEXT_FORMAT = RECORD_FORMAT_VERSION + 1;

const command = (threadId: string, runId = 'r1'): StartRunCommand => ({
  threadId,
  ownerId: 'alice',
  runKey: randomUUID(),
  runId,
  instanceId: 'instance-a',
  messages: [{ id: `${runId}-m1`, role: 'user', content: 'hello' }],
});

/**
 * The TypeORM store beside a newer release on one database: a thread whose records carry a
 * format one version ahead of this release's is left alone (not started, resumed, swept or
 * repaired), which is what makes a rollback to this release safe; a thread written before the
 * format was recorded reads as this release's format.
 */
export function describeRecordFormat(
  name: string,
  open: (options: TypeOrmSessionStoreOptions) => Promise<OpenedStore>,
): void {
  describe(`${name}: records of a newer release`, () => {
    let opened: OpenedStore;
    /** Marks `threadId` as written by the next release, as that release's own writes would. */
    const writtenByNextRelease = (threadId: string) =>
      opened.dataSource
        .getRepository(ThreadEntity)
        .update({ threadId }, { formatVersion: NEXT_FORMAT });
    const row = (threadId: string) =>
      opened.dataSource.getRepository(ThreadEntity).findOneByOrFail({ threadId });

    beforeEach(async () => {
      opened = await open({ leaseTtlMs: LEASE_TTL_MS });
    });

    afterEach(async () => {
      await opened.close();
    });

    it('records the format of this release on a new thread', async () => {
      await opened.store.startRun(command('t1'));

      expect((await row('t1')).formatVersion).toBe(RECORD_FORMAT_VERSION);
    });

    /** Threads whose runs crashed and were recorded `interrupted`, as a sweep leaves them. */
    const interrupted = async (...threadIds: string[]) => {
      const started = threadIds.map((threadId) => command(threadId));
      for (const start of started) await opened.store.startRun(start);
      await advanceLeaseClock(opened.dataSource, LEASE_TTL_MS * 2);
      await opened.store.recoverCrashedRuns();
      return started;
    };

    it('refuses to start or resume a run of a thread in a newer format, writing nothing', async () => {
      const [first] = await interrupted('t1');
      await writtenByNextRelease('t1');
      const before = await row('t1');

      const refused = opened.store.startRun({
        ...command('t1', 'r2'),
        expectedLastRunKey: first.runKey,
      });

      await expect(refused).rejects.toBeInstanceOf(NewerRecordFormatError);
      await expect(refused).rejects.toMatchObject({
        code: 'RECORD_FORMAT_NEWER',
        formatVersion: NEXT_FORMAT,
        understoodVersion: RECORD_FORMAT_VERSION,
      });
      expect(await row('t1')).toEqual(before);
      expect(await opened.store.loadMessages('t1')).toHaveLength(1);
    });

    it('neither sweeps nor repairs on read a crashed run of a thread in a newer format', async () => {
      await opened.store.startRun(command('t1'));
      await writtenByNextRelease('t1');
      await advanceLeaseClock(opened.dataSource, LEASE_TTL_MS * 2);

      await expect(opened.store.recoverCrashedRuns()).resolves.toBe(0);
      expect(await opened.store.findThread('t1')).toMatchObject({
        status: 'running',
        activeRunId: 'r1',
      });
      expect(await row('t1')).toMatchObject({
        status: 'running',
        activeRunId: 'r1',
        formatVersion: NEXT_FORMAT,
      });
    });

    it('does not offer an interrupted thread in a newer format for automatic resumption', async () => {
      await interrupted('mine', 'newer');
      await writtenByNextRelease('newer');

      await expect(opened.store.findInterruptedThreads(10)).resolves.toEqual(['mine']);
    });

    it('reads a thread written before the format was recorded as this release’s format, and runs it', async () => {
      // What the previous release inserts: no format column in its statement.
      await opened.dataSource.query(
        "INSERT INTO agent_threads (thread_id, owner_id, status, message_count, created_at, updated_at) VALUES ('old', 'alice', 'idle', 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
      );

      await opened.store.startRun(command('old'));

      expect(await row('old')).toMatchObject({
        formatVersion: RECORD_FORMAT_VERSION,
        activeRunId: 'r1',
      });
    });
  });
}
