import type { LoggerService } from '@nestjs/common';
import { EventType, type BaseEvent } from '@ag-ui/core';
import type { DataSource } from 'typeorm';
import { waitFor } from 'dev-services';
import type { LoggedEvent } from '../contracts/run-event-log.interface.js';
import { PostgresSignalBus } from '../postgres-signals/postgres-signal-bus.js';
import { usePostgresDatabases } from './postgres-databases.fixtures.js';
import { TypeOrmRunEventLog } from './typeorm-run-event-log.js';

const quiet: LoggerService = {
  log: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const databases = usePostgresDatabases('log_nudges');
const opened: Array<{ close(): Promise<void> } | DataSource> = [];

const events = (from: number, to: number): LoggedEvent[] =>
  Array.from({ length: to - from + 1 }, (_, index) => ({
    id: from + index,
    event: {
      type: EventType.TEXT_MESSAGE_CONTENT,
      messageId: 'm1',
      delta: `delta ${from + index}`,
    } as BaseEvent,
  }));

/** One instance's SQL log, woken by its own PostgreSQL bus. */
async function instance(source: DataSource): Promise<TypeOrmRunEventLog> {
  const bus = new PostgresSignalBus(source, { logger: quiet });
  opened.push(bus);
  await bus.connect();
  return new TypeOrmRunEventLog(source, Date.now, bus);
}

afterEach(async () => {
  for (const item of opened.splice(0).reverse())
    await ('destroy' in item ? item.destroy() : item.close());
});

describe('TypeOrmRunEventLog with PostgreSQL log nudges', () => {
  it('delivers to a follower on another instance the events appended there, without waiting for a liveness check', async () => {
    const source = await databases.open({ poolSize: 4 });
    opened.unshift(source);
    const [a, b] = [await instance(source), await instance(source)];
    const run = { threadId: 't-nudge', runId: 'r1' };
    await a.append(run, events(1, 2));
    const seen: number[] = [];
    b.follow(run, 0, { onEvents: (batch) => seen.push(...batch.map((entry) => entry.id)) });
    await waitFor(() => seen.length === 2, 'the stored events');

    await a.append(run, events(3, 5));
    await a.append(run, events(6, 6));

    await waitFor(() => seen.length === 6, 'the appended events on the other instance');
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('does not wake the followers of other runs', async () => {
    const source = await databases.open({ poolSize: 4 });
    opened.unshift(source);
    const [a, b] = [await instance(source), await instance(source)];
    // Appends with no nudge: only a follower woken by mistake would read them.
    const unannounced = new TypeOrmRunEventLog(source);
    const [run, other] = [
      { threadId: 't-one', runId: 'r1' },
      { threadId: 't-two', runId: 'r1' },
    ];
    const seenOther: number[] = [];
    const seen: number[] = [];
    b.follow(other, 0, { onEvents: (batch) => seenOther.push(...batch.map((entry) => entry.id)) });
    b.follow(run, 0, { onEvents: (batch) => seen.push(...batch.map((entry) => entry.id)) });
    await a.append(other, events(1, 1));
    await waitFor(() => seenOther.length === 1, 'the follower of the other run to catch up');
    await unannounced.append(other, events(2, 2));

    await a.append(run, events(1, 3));
    await waitFor(() => seen.length === 3, 'the events of the run followed');
    await a.append(run, events(4, 4));
    await waitFor(() => seen.length === 4, 'a second nudge of the run followed');

    expect(seenOther).toEqual([1]);
  });
});
