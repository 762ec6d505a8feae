import { randomUUID } from 'node:crypto';
import { checkpointTargetOf } from '../testing/session-store.contract.js';
import type { StartRunCommand } from '../contracts/session-store.interface.js';
import { openSqliteStore, type SqliteStoreFixture } from './sqlite-store.fixtures.js';

describe('step commits on SQLite', () => {
  let sqlite: SqliteStoreFixture;

  beforeEach(async () => {
    sqlite = await openSqliteStore();
  });

  afterEach(async () => {
    await sqlite.close();
  });

  const started = async (threadId: string): Promise<StartRunCommand> => {
    const command = {
      threadId,
      ownerId: 'alice',
      runKey: randomUUID(),
      runId: 'r1',
      instanceId: 'instance-a',
      messages: [],
    };
    await sqlite.store.startRun(command);
    return command;
  };

  /** Counts the transactions the store opens from now on. */
  const countTransactions = () => {
    const counted = { transactions: 0 };
    const transaction = sqlite.dataSource.transaction.bind(sqlite.dataSource) as (
      work: unknown,
    ) => Promise<unknown>;
    (sqlite.dataSource as unknown as { transaction: unknown }).transaction = (work: unknown) => (
      counted.transactions++,
      transaction(work)
    );
    return counted;
  };

  it('writes the steps of runs that finish at once in one transaction', async () => {
    const commands = await Promise.all(['a', 'b', 'c'].map(started));
    const counted = countTransactions();

    await Promise.all(
      commands.map((command) =>
        sqlite.store.commitStep(checkpointTargetOf(command), {
          messages: [{ id: `${command.threadId}-1`, role: 'assistant', content: 'x' }],
        }),
      ),
    );

    expect(counted.transactions).toBe(1);
    expect(
      (
        await Promise.all(commands.map((command) => sqlite.store.loadMessages(command.threadId)))
      ).map((h) => h.length),
    ).toEqual([1, 1, 1]);
  });

  it('fails only the step the database refuses, writing none of it, and commits the others of its transaction', async () => {
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map(started));
    await sqlite.store.commitStep(checkpointTargetOf(b), {
      messages: [{ id: 'taken', role: 'assistant', content: 'first' }],
    });

    const results = await Promise.allSettled([
      sqlite.store.commitStep(checkpointTargetOf(a), {
        messages: [{ id: 'a1', role: 'assistant', content: 'a' }],
        state: { a: 1 },
      }),
      sqlite.store.commitStep(checkpointTargetOf(b), {
        messages: [{ id: 'taken', role: 'assistant', content: 'again' }],
        state: { b: 1 },
      }),
      sqlite.store.commitStep(checkpointTargetOf(c), {
        startedCalls: [{ id: 'c-call', name: 'search', arguments: '{}' }],
      }),
    ]);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await sqlite.store.loadMessages('a')).map((m) => m.id)).toEqual(['a1']);
    expect(await sqlite.store.findThread('b')).toMatchObject({ messageCount: 1, runState: null });
    expect(await sqlite.store.findToolCalls('c', ['c-call'])).toMatchObject([
      { status: 'started' },
    ]);
  });
});
