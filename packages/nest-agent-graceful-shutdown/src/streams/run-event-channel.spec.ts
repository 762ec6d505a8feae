import { EventType, type BaseEvent } from '@ag-ui/core';
import { InMemoryRunEventLog } from './in-memory-run-event-log.js';
import { RunEventChannel, type ChannelEvent } from './run-event-channel.js';
import type {
  LoggedEvent,
  RunEventLog,
  RunLogAppendOptions,
  RunLogKey,
} from '../contracts/run-event-log.interface.js';
import { REFILL_TAIL } from './log-writer.js';

const run: RunLogKey = { threadId: 't1', runId: 'r1' };
const RETENTION_MS = 60_000;
const text = (delta: string) =>
  ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'm1', delta }) as BaseEvent;
const step = (kind: 'start' | 'finish', stepName: string) =>
  ({
    type: kind === 'start' ? EventType.STEP_STARTED : EventType.STEP_FINISHED,
    stepName,
  }) as BaseEvent;

/** The in-memory log, made to fail its appends while `down` is set. */
class FlakyLog extends InMemoryRunEventLog {
  down = false;
  override async append(
    key: RunLogKey,
    events: readonly LoggedEvent[],
    writer?: string,
    options?: RunLogAppendOptions,
  ): Promise<void> {
    if (this.down) throw new Error('log unreachable');
    return super.append(key, events, writer, options);
  }
}

/** A log whose store can lose its latest events and its writer's claim, as a Redis failover that dropped writes not yet replicated. */
class ForgetfulLog implements RunEventLog {
  private inner = new InMemoryRunEventLog();

  /** The store comes back holding only the run's events up to `id`. */
  async forgetAfter(key: RunLogKey, id: number): Promise<void> {
    const kept = ((await this.inner.read(key, 0, 100_000)) ?? []).filter((entry) => entry.id <= id);
    this.inner = new InMemoryRunEventLog();
    if (kept.length) await this.inner.append(key, kept);
  }

  append: RunEventLog['append'] = (...args) => this.inner.append(...args);
  claim: RunEventLog['claim'] = (...args) => this.inner.claim(...args);
  read: RunEventLog['read'] = (...args) => this.inner.read(...args);
  last: RunEventLog['last'] = (...args) => this.inner.last(...args);
  follow: RunEventLog['follow'] = (...args) => this.inner.follow(...args);
  retain: RunEventLog['retain'] = (...args) => this.inner.retain(...args);
}

async function openChannel(
  log: InMemoryRunEventLog,
  writer = 'attempt-1',
): Promise<{ channel: RunEventChannel; seen: ChannelEvent[] }> {
  const channel = await RunEventChannel.open(log, run, { firstAttempt: async () => false });
  const seen: ChannelEvent[] = [];
  channel.subscribe((event) => seen.push(event));
  await channel.activate(writer);
  return { channel, seen };
}

describe('RunEventChannel', () => {
  it('reads nothing when opened for a run of a new thread, and still continues after events its claim finds', async () => {
    const log = new InMemoryRunEventLog();
    let reads = 0;
    const last = log.last.bind(log);
    log.last = (key) => (reads++, last(key));
    await log.append(run, [
      { id: 1, event: { type: EventType.RUN_STARTED, threadId: 't1', runId: 'r1' } as BaseEvent },
    ]);

    const channel = await RunEventChannel.open(log, run, {
      firstAttempt: async () => true,
      fresh: true,
    });
    const seen: ChannelEvent[] = [];
    channel.subscribe((event) => seen.push(event));
    await channel.activate('attempt-1');
    channel.emit(text('a'));
    await channel.close(1_000, RETENTION_MS);

    expect(reads).toBe(0);
    expect(seen.map((entry) => entry.id)).toEqual([2]);
  });

  it("numbers an attempt's events after the log's last one and sends each once it is in the log", async () => {
    const log = new InMemoryRunEventLog();
    await log.append(run, [
      { id: 1, event: { type: EventType.RUN_STARTED, threadId: 't1', runId: 'r1' } as BaseEvent },
    ]);
    await log.append(run, [
      { id: 2, event: { type: EventType.RUN_FINISHED, threadId: 't1', runId: 'r1' } as BaseEvent },
    ]);
    const { channel, seen } = await openChannel(log);

    channel.emit(text('a'));
    channel.emit(text('b'));
    await channel.close(1_000, RETENTION_MS);

    expect(seen.map((entry) => entry.id)).toEqual([3, 4]);
    expect((await log.read(run, 2, 10))?.map((entry) => entry.id)).toEqual([3, 4]);
  });

  it("closes what a crashed attempt left open after the retry's RUN_STARTED, which stays off the log and reaches its connection first", async () => {
    const log = new InMemoryRunEventLog();
    await log.append(run, [
      { id: 1, event: { type: EventType.RUN_STARTED, threadId: 't1', runId: 'r1' } as BaseEvent },
      { id: 2, event: step('start', 'reasoning') },
    ]);
    const { channel, seen } = await openChannel(log);

    channel.emit({ type: EventType.RUN_STARTED, threadId: 't1', runId: 'r1' } as BaseEvent);
    await channel.close(1_000, RETENTION_MS);

    expect((await log.read(run, 0, 10))?.map((entry) => entry.event.type)).toEqual([
      EventType.RUN_STARTED,
      EventType.STEP_STARTED,
      EventType.STEP_FINISHED,
    ]);
    expect(seen).toEqual([
      { event: { type: EventType.RUN_STARTED, threadId: 't1', runId: 'r1' } },
      { id: 3, event: { type: EventType.STEP_FINISHED, stepName: 'reasoning' } },
    ]);
  });

  it("closes what a handed-over attempt left open before a continuation's first event, which starts no second segment", async () => {
    const log = new InMemoryRunEventLog();
    await log.append(run, [
      { id: 1, event: { type: EventType.RUN_STARTED, threadId: 't1', runId: 'r1' } as BaseEvent },
      { id: 2, event: step('start', 'acting') },
    ]);
    const { channel } = await openChannel(log);

    channel.emit(step('start', 'reasoning'));
    await channel.close(1_000, RETENTION_MS);

    const logged = (await log.read(run, 0, 10))?.map((entry) => [entry.id, entry.event.type]);
    expect(logged).toEqual([
      [1, EventType.RUN_STARTED],
      [2, EventType.STEP_STARTED],
      [3, EventType.STEP_FINISHED],
      [4, EventType.STEP_STARTED],
    ]);
  });

  it('logs nothing and sends no ids when the log of a run that continues lost its events, so no id is ever reused', async () => {
    const log = new InMemoryRunEventLog();
    const channel = await RunEventChannel.open(log, run, {
      firstAttempt: async () => false,
      continues: true,
    });
    const seen: ChannelEvent[] = [];
    channel.subscribe((event) => seen.push(event));
    await channel.activate('attempt-2');

    channel.emit({ type: EventType.RUN_STARTED, threadId: 't1', runId: 'r1' } as BaseEvent);
    channel.emit({ type: EventType.RUN_FINISHED, threadId: 't1', runId: 'r1' } as BaseEvent);
    await channel.close(1_000, RETENTION_MS);

    expect(seen.map((entry) => [entry.id, entry.event.type])).toEqual([
      [undefined, EventType.RUN_STARTED],
      [undefined, EventType.RUN_FINISHED],
    ]);
    expect(await log.last(run)).toBeNull();
  });

  it('sends events at once while the log is down, and appends them in order once it is back', async () => {
    const log = new FlakyLog();
    const { channel, seen } = await openChannel(log);
    log.down = true;

    channel.emit(text('a'));
    channel.emit(text('b'));
    await channel.close(50, RETENTION_MS);
    expect(seen.map((entry) => entry.id)).toEqual([1, 2]);
    log.down = false;

    await expect(waitForLog(log, 2)).resolves.toEqual([1, 2]);
  });

  it('keeps the log for the retention time from the close of the attempt, and then evicts it', async () => {
    let now = 0;
    const log = new InMemoryRunEventLog(() => now);
    const { channel } = await openChannel(log);
    channel.emit(text('a'));

    await channel.close(1_000, RETENTION_MS);
    now += RETENTION_MS - 1;
    expect((await log.read(run, 0, 10))?.length).toBe(1);
    now += 1;

    expect(await log.read(run, 0, 10)).toBeNull();
  });

  it('sends the events of an attempt a newer one replaced without ids, and stores none of them', async () => {
    const log = new InMemoryRunEventLog();
    const older = await openChannel(log, 'attempt-1');
    older.channel.emit(text('a'));
    await older.channel.settle(1_000);
    const newer = await openChannel(log, 'attempt-2');

    older.channel.emit(text('stale'));
    await older.channel.close(1_000, RETENTION_MS);
    newer.channel.emit(text('b'));
    await newer.channel.close(1_000, RETENTION_MS);

    expect(older.seen).toEqual([{ id: 1, event: text('a') }, { event: text('stale') }]);
    expect(
      (await log.read(run, 0, 10))?.map((entry) => (entry.event as { delta?: string }).delta),
    ).toEqual(['a', 'b']);
  });

  it('appends again the events its store lost after they were stored, so the log stays whole and in order', async () => {
    const log = new ForgetfulLog();
    const channel = await RunEventChannel.open(log, run, { firstAttempt: async () => true });
    await channel.activate('attempt-1');
    for (const delta of ['a', 'b', 'c']) channel.emit(text(delta));
    await channel.settle(1_000);

    await log.forgetAfter(run, 1);
    channel.emit(text('d'));
    await channel.settle(1_000);

    expect(await log.read(run, 0, 100)).toEqual(
      ['a', 'b', 'c', 'd'].map((delta, index) => ({ id: index + 1, event: text(delta) })),
    );
  });

  it('stores after the gap, and reports it, when the store lost more events than the writer keeps', async () => {
    const log = new ForgetfulLog();
    const errors: unknown[] = [];
    const channel = await RunEventChannel.open(log, run, {
      firstAttempt: async () => true,
      onError: (error) => errors.push(error),
    });
    await channel.activate('attempt-1');
    for (let index = 0; index < REFILL_TAIL + 5; index++) channel.emit(text(String(index)));
    await channel.settle(5_000);

    await log.forgetAfter(run, 2);
    channel.emit(text('late'));
    await channel.settle(1_000);

    expect((await log.read(run, 0, 100))?.map((entry) => entry.id)).toEqual([
      1,
      2,
      REFILL_TAIL + 6,
    ]);
    expect(errors).toEqual([expect.objectContaining({ name: 'EventLogGapError', lastId: 2 })]);
  });
});

/** The ids in the log once it holds `count` events, polling with a deadline. */
async function waitForLog(log: InMemoryRunEventLog, count: number): Promise<number[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const ids = ((await log.read(run, 0, 100)) ?? []).map((entry) => entry.id);
    if (ids.length >= count) return ids;
    if (Date.now() > deadline) throw new Error(`the log holds ${ids.length} events, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
