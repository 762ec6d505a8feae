import { randomUUID } from 'node:crypto';
import { checkpointTargetOf } from '../testing/session-store.contract.js';
import type { DataSource } from 'typeorm';
import type { StartRunCommand } from '../contracts/session-store.interface.js';
import { usePostgresDatabases } from './postgres-databases.fixtures.js';
import type { PostgresConnection } from './session-database.js';
import { writeStepsPostgres } from './step-rows.postgres.js';
import { TypeOrmSessionStore } from './typeorm-session.store.js';

const databases = usePostgresDatabases('step_commit');

/** The pool's clients, checked out. */
interface PgPool {
  on(event: 'acquire', listener: (client: PgClient) => void): void;
  off(event: 'acquire', listener: (client: PgClient) => void): void;
}
interface PgClient {
  query: (...args: unknown[]) => unknown;
  counted?: boolean;
}

/** Every statement sent to the server through `dataSource`'s pool while `work` runs. */
async function statementsOf(
  dataSource: DataSource,
  work: () => Promise<unknown>,
): Promise<string[]> {
  const sent: string[] = [];
  let counting = true;
  const pool = (dataSource.driver as unknown as { master: PgPool }).master;
  const wrap = (client: PgClient) => {
    if (client.counted) return;
    client.counted = true;
    const query = client.query.bind(client);
    client.query = (...args: unknown[]) => {
      if (counting)
        sent.push(
          typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text),
        );
      return query(...args);
    };
  };
  pool.on('acquire', wrap);
  try {
    await work();
  } finally {
    counting = false;
    pool.off('acquire', wrap);
  }
  return sent;
}

describe('step commits on PostgreSQL', () => {
  let dataSource: DataSource;
  let store: TypeOrmSessionStore;

  beforeEach(async () => {
    dataSource = await databases.open();
    store = new TypeOrmSessionStore(dataSource);
  });

  afterEach(async () => {
    await store.onApplicationShutdown();
    await dataSource.destroy();
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
    await store.startRun(command);
    return command;
  };
  const step = (id: string) => ({
    messages: [
      {
        id: `${id}-a`,
        role: 'assistant' as const,
        content: 'looking',
        toolCalls: [{ id: `${id}-c0`, name: 'search', arguments: '{}' }],
      },
      { id: `${id}-t`, role: 'tool' as const, content: 'found', toolCallId: `${id}-c0` },
    ],
    startedCalls: [{ id: `${id}-c1`, name: 'search', arguments: '{"q":1}' }],
    state: { graph: id },
  });

  it('writes a whole step (messages, tool records, state, lease) in one statement, without BEGIN or COMMIT', async () => {
    const command = await started('one');

    const sent = await statementsOf(dataSource, () =>
      store.commitStep(checkpointTargetOf(command), step('s1')),
    );

    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^WITH v AS/);
    expect(await store.loadMessages('one')).toHaveLength(2);
    expect(await store.findToolCalls('one', ['s1-c1'])).toMatchObject([{ status: 'started' }]);
  });

  it('writes the steps of 50 runs that finish at once in one statement', async () => {
    const commands = await Promise.all(Array.from({ length: 50 }, (_, i) => started(`many-${i}`)));

    const sent = await statementsOf(dataSource, () =>
      Promise.all(
        commands.map((command) =>
          store.commitStep(checkpointTargetOf(command), step(command.threadId)),
        ),
      ),
    );

    expect(sent).toHaveLength(1);
    const histories = await Promise.all(
      commands.map((command) => store.loadMessages(command.threadId)),
    );
    expect(histories.every((history) => history.length === 2)).toBe(true);
  });

  it('finishes, in one statement, the calls that the tool messages of 50 runs answer, and only those of runs holding their lease', async () => {
    const commands = await Promise.all(
      Array.from({ length: 50 }, (_, i) => started(`finish-${i}`)),
    );
    const callOf = (command: StartRunCommand) => ({
      id: `${command.threadId}-call`,
      name: 'search',
      arguments: '{}',
    });
    await Promise.all(
      commands.map((command) =>
        store.commitStep(checkpointTargetOf(command), { startedCalls: [callOf(command)] }),
      ),
    );
    const stale = commands[0];
    // Another attempt took the thread over.
    await dataSource.query(
      `UPDATE agent_threads SET last_run_key = 'someone-else' WHERE thread_id = $1`,
      [stale.threadId],
    );

    let results: PromiseSettledResult<void>[] = [];
    const sent = await statementsOf(dataSource, async () => {
      results = await Promise.allSettled(
        commands.map((command) =>
          store.commitStep(checkpointTargetOf(command), {
            messages: [
              {
                id: `${command.threadId}-t`,
                role: 'tool',
                content: 'found',
                toolCallId: callOf(command).id,
              },
            ],
          }),
        ),
      );
    });

    expect(sent).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    const records = await Promise.all(
      commands.map((command) => store.findToolCalls(command.threadId, [callOf(command).id])),
    );
    expect(records.map(([record]) => record.status)).toEqual([
      'started',
      ...commands.slice(1).map(() => 'finished'),
    ]);
  });

  it('fails only the step the database refuses, writing none of it, and commits the others sent with it', async () => {
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map(started));
    await store.commitStep(checkpointTargetOf(b), {
      messages: [{ id: 'taken', role: 'assistant', content: 'first' }],
    });

    const results = await Promise.allSettled([
      store.commitStep(checkpointTargetOf(a), {
        messages: [{ id: 'a1', role: 'assistant', content: 'a' }],
        state: { a: 1 },
      }),
      store.commitStep(checkpointTargetOf(b), {
        messages: [{ id: 'taken', role: 'assistant', content: 'again' }],
        state: { b: 1 },
      }),
      store.commitStep(checkpointTargetOf(c), {
        startedCalls: [{ id: 'c-call', name: 'search', arguments: '{}' }],
      }),
    ]);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await store.loadMessages('a')).map((m) => m.id)).toEqual(['a1']);
    expect(await store.findThread('b')).toMatchObject({ messageCount: 1, runState: null });
    expect(await store.findToolCalls('c', ['c-call'])).toMatchObject([{ status: 'started' }]);
  });

  it('stores a step once when a retry follows a commit whose answer was lost', async () => {
    const command = await started('retry');
    const item = { target: checkpointTargetOf(command), step: step('s1') };
    const at = new Date().toISOString();
    const lease =
      'to_char(statement_timestamp() AT TIME ZONE \'UTC\', \'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"\')';

    const runner = dataSource.createQueryRunner();
    const connection = (await runner.connect()) as PostgresConnection;
    try {
      await expect(writeStepsPostgres(connection, [item], at, lease, false)).resolves.toEqual([
        'written',
      ]);
      await expect(writeStepsPostgres(connection, [item], at, lease, true)).resolves.toEqual([
        'stored',
      ]);
    } finally {
      await runner.release();
    }

    expect((await store.loadMessages('retry')).map((m) => m.id)).toEqual(['s1-a', 's1-t']);
    expect(await store.findThread('retry')).toMatchObject({ messageCount: 2 });
  });
});
