import { randomUUID } from 'node:crypto';
import type { StartRunCommand } from '../contracts/session-store.interface.js';
import { openSqliteStore, type SqliteStoreFixture } from './sqlite-store.fixtures.js';

describe('lease renewal on SQLite (one writer)', () => {
  let fixture: SqliteStoreFixture;

  beforeEach(async () => {
    fixture = await openSqliteStore({ leaseTtlMs: 10_000 });
  });

  afterEach(() => fixture.close());

  it('renews right after the write in flight, ahead of the checkpoints queued before it', async () => {
    const { store } = fixture;
    const runs: StartRunCommand[] = Array.from({ length: 30 }, (_, i) => ({
      threadId: `t${i}`,
      ownerId: 'alice',
      runKey: randomUUID(),
      runId: 'r1',
      instanceId: 'instance-a',
      messages: [],
    }));
    for (const run of runs) await store.startRun(run);
    const finished: string[] = [];

    const checkpoints = runs.map((run, i) =>
      store
        .appendMessages(
          {
            threadId: run.threadId,
            runId: 'r1',
            runKey: run.runKey,
            iteration: 1,
            phase: 'reasoning',
          },
          [{ id: `a${i}`, role: 'assistant', content: 'step' }],
        )
        .then(() => finished.push(`checkpoint ${i}`)),
    );
    const renewal = store.renewLeases(
      'instance-a',
      runs.map((run) => run.runKey),
    );
    void renewal.then(() => finished.push('renewal'));

    await expect(renewal).resolves.toEqual([]);
    await Promise.all(checkpoints);
    expect(finished).toHaveLength(31);
    expect(finished.indexOf('renewal')).toBeLessThanOrEqual(1);
  });
});
