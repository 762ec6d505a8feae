import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { EventType } from '@ag-ui/core';
import type Redis from 'ioredis';
import { RedisLogWire } from '../../packages/nest-agent-graceful-shutdown/src/redis/redis-log-wire';
import { RedisRunEventLog } from '../../packages/nest-agent-graceful-shutdown/src/redis/redis-run-event-log';
import { InMemoryRunEventLog } from '../../packages/nest-agent-graceful-shutdown/src/streams/in-memory-run-event-log';
import type {
  LoggedEvent,
  RunEventLog,
  RunLogKey,
} from '../../packages/nest-agent-graceful-shutdown/src/contracts/run-event-log.interface';
import { agUiRun } from './ag-ui-run-events';
import { withRedisClient, withRedisServer } from './bench-services';
import { formatMs, SILENT_LOGGER, summarize, verdict, type Summary } from './bench-stats';
import { replayLog } from './log-replay';
import { renderTable } from './bench-table';
import { withDeadline } from './wait-until';

/** The sizes and repetitions of the run-event-log benchmark. */
export interface EventLogOptions {
  /** Events of the measured run (stored, then replayed). */
  events: number;
  /** Events per append while the run is stored, like the event channel's batches. */
  appendBatch: number;
  /** Events per read of a replay. */
  pageSize: number;
  /** Whole-log replays per store; the median is reported. */
  replays: number;
  /** Events appended one at a time and timed to the follower, per store. */
  followSamples: number;
  /** Appends before those, not timed (connections, the follow loop, JIT). */
  followWarmup: number;
  /** The Redis follow latency p50 must stay under this, in milliseconds. */
  followTargetMs: number;
}

/** What one retained run costs in Redis. */
export interface EventLogMemory {
  events: number;
  /** Mean length of an event's JSON, in bytes. */
  jsonBytesPerEvent: number;
  /** `MEMORY USAGE <key> SAMPLES 0` over the events, in bytes. */
  keyBytesPerEvent: number;
  /** Growth of the server's `used_memory` over the events, in bytes. */
  usedMemoryBytesPerEvent: number;
  /** Share of TEXT_MESSAGE_CONTENT events in the run. */
  textDeltaShare: number;
}

/** One store's replay and follow numbers. */
export interface EventLogStoreRow {
  store: string;
  /** Median events per second of a whole-log replay. */
  replayEventsPerSecond: number;
  /** Median milliseconds of a whole-log replay. */
  replayMs: number;
  /** Milliseconds from an append's call to its follower's callback. */
  follow: Summary;
}

/** What the run-event-log benchmark found. */
export interface EventLogResult {
  options: EventLogOptions;
  memory: EventLogMemory;
  rows: EventLogStoreRow[];
}

/** A follower callback later than this means the follow is broken, not slow. */
const FOLLOW_DEADLINE_MS = 10_000;
const KEY_PREFIX = 'bench-log:';

const freshRun = (): RunLogKey => ({
  threadId: `bench-thread-${randomUUID()}`,
  runId: `bench-run-${randomUUID()}`,
});

async function store(
  log: RunEventLog,
  run: RunLogKey,
  events: readonly LoggedEvent[],
  batch: number,
): Promise<void> {
  for (let start = 0; start < events.length; start += batch)
    await log.append(run, events.slice(start, start + batch));
}

/** Appends `events` one at a time to a followed run; the time from each append's call to its callback, in ms. */
async function followLatencies(
  log: RunEventLog,
  events: readonly LoggedEvent[],
  warmup: number,
): Promise<number[]> {
  const run = freshRun();
  let expected = 0;
  let arrived: ((at: number) => void) | undefined;
  const unsubscribe = log.follow(run, 0, {
    onEvents: (got) => got[got.length - 1].id >= expected && arrived?.(performance.now()),
  });
  const samples: number[] = [];
  try {
    for (const logged of events) {
      expected = logged.id;
      const arrival = new Promise<number>((resolve) => (arrived = resolve));
      const startedAt = performance.now();
      await log.append(run, [logged]);
      const at = await withDeadline(arrival, FOLLOW_DEADLINE_MS, undefined);
      if (at === undefined)
        throw new Error(
          `event ${logged.id} did not reach its follower within ${FOLLOW_DEADLINE_MS} ms`,
        );
      if (logged.id > warmup) samples.push(at - startedAt);
    }
  } finally {
    unsubscribe();
  }
  return samples;
}

async function measureStore(
  name: string,
  log: RunEventLog,
  events: readonly LoggedEvent[],
  options: EventLogOptions,
): Promise<EventLogStoreRow> {
  const run = freshRun();
  await store(log, run, events, options.appendBatch);
  await replayLog(log, run, events.length, options.pageSize); // warm-up
  const replays: number[] = [];
  for (let i = 0; i < options.replays; i++)
    replays.push(await replayLog(log, run, events.length, options.pageSize));
  const replayMs = summarize(replays).p50;
  const timedEvents = events.slice(0, options.followWarmup + options.followSamples);
  const follow = summarize(await followLatencies(log, timedEvents, options.followWarmup));
  return {
    store: name,
    replayEventsPerSecond: events.length / (replayMs / 1000),
    replayMs,
    follow,
  };
}

async function usedMemory(probe: Redis): Promise<number> {
  const found = /used_memory:(\d+)/.exec(await probe.info('memory'));
  if (!found) throw new Error('INFO memory has no used_memory');
  return Number(found[1]);
}

/** What one stored run of `events` costs in Redis, on a server holding nothing else. */
async function measureMemory(
  log: RunEventLog,
  probe: Redis,
  events: readonly LoggedEvent[],
  batch: number,
): Promise<EventLogMemory> {
  const run = freshRun();
  const before = await usedMemory(probe);
  await store(log, run, events, batch);
  const after = await usedMemory(probe);
  const keyBytes = Number(
    await probe.call('MEMORY', 'USAGE', new RedisLogWire(KEY_PREFIX).logKey(run), 'SAMPLES', '0'),
  );
  const jsonBytes = events.reduce(
    (sum, { event }) => sum + Buffer.byteLength(JSON.stringify(event)),
    0,
  );
  const deltas = events.filter(({ event }) => event.type === EventType.TEXT_MESSAGE_CONTENT).length;
  const count = events.length;
  return {
    events: count,
    jsonBytesPerEvent: jsonBytes / count,
    keyBytesPerEvent: keyBytes / count,
    usedMemoryBytesPerEvent: (after - before) / count,
    textDeltaShare: deltas / count,
  };
}

/**
 * On one throwaway redis-server: the memory of one stored run, then, for the Redis log and
 * the in-memory log in turn, whole-log replays in pages and the latency of follows.
 */
export async function measureEventLog(options: EventLogOptions): Promise<EventLogResult> {
  const events = agUiRun(freshRun(), options.events);
  return withRedisServer((redis) =>
    withRedisClient(redis.url, async (probe) => {
      const log = new RedisRunEventLog({
        url: redis.url,
        keyPrefix: KEY_PREFIX,
        logger: SILENT_LOGGER,
      });
      try {
        await log.connect();
        const memory = await measureMemory(log, probe, events, options.appendBatch);
        const rows = [await measureStore('RedisRunEventLog', log, events, options)];
        rows.push(
          await measureStore('InMemoryRunEventLog', new InMemoryRunEventLog(), events, options),
        );
        return { options, memory, rows };
      } finally {
        await log.close();
      }
    }),
  );
}

const bytes = (value: number) => `${value.toFixed(0)} B`;

/** The memory, replay and follow tables, and whether the Redis follow met its target. */
export function eventLogReport(result: EventLogResult): string {
  const { options, memory, rows } = result;
  const memoryTable = renderTable(
    [
      { heading: 'per retained event' },
      { heading: 'bytes', align: 'right' },
      { heading: 'x JSON', align: 'right' },
    ],
    [
      ['event JSON', bytes(memory.jsonBytesPerEvent), '1.00'],
      [
        'MEMORY USAGE key / events',
        bytes(memory.keyBytesPerEvent),
        (memory.keyBytesPerEvent / memory.jsonBytesPerEvent).toFixed(2),
      ],
      [
        'used_memory delta / events',
        bytes(memory.usedMemoryBytesPerEvent),
        (memory.usedMemoryBytesPerEvent / memory.jsonBytesPerEvent).toFixed(2),
      ],
    ],
  );
  const replayTable = renderTable(
    [
      { heading: 'store' },
      { heading: 'replay p50', align: 'right' },
      { heading: 'events/s p50', align: 'right' },
    ],
    rows.map((r) => [
      r.store,
      formatMs(r.replayMs),
      Math.round(r.replayEventsPerSecond).toLocaleString('en-US'),
    ]),
  );
  const followTable = renderTable(
    [
      { heading: 'store' },
      { heading: 'samples', align: 'right' },
      { heading: 'p50', align: 'right' },
      { heading: 'p99', align: 'right' },
      { heading: 'max', align: 'right' },
    ],
    rows.map((r) => [
      r.store,
      String(r.follow.count),
      formatMs(r.follow.p50, 3),
      formatMs(r.follow.p99, 3),
      formatMs(r.follow.max, 3),
    ]),
  );
  const redisFollow = rows.find((r) => r.store === 'RedisRunEventLog')?.follow.p50 ?? NaN;
  return [
    `(h) run event log: real redis-server (Redis Streams) and the in-memory log, one run of ${memory.events.toLocaleString('en-US')} AG-UI events`,
    `    (${(memory.textDeltaShare * 100).toFixed(0)}% text deltas of 20-60 chars, the rest steps and tool calls with uuid ids), stored in appends of ${options.appendBatch}`,
    '',
    'Redis memory per retained event:',
    memoryTable,
    '',
    `replay of the whole log in pages of ${options.pageSize.toLocaleString('en-US')} (median of ${options.replays}):`,
    replayTable,
    '',
    `follow latency, one event appended at a time, append call to the follower's callback (${options.followWarmup} warm-up appends left out):`,
    followTable,
    '',
    `Redis follow p50 under ${options.followTargetMs} ms: ${formatMs(redisFollow, 3)}  ${verdict(redisFollow < options.followTargetMs)}`,
  ].join('\n');
}
