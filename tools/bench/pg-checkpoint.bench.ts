import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { type AgentMessage, type ToolCall } from 'nest-agent-graceful-shutdown';
import {
  SESSION_ENTITIES,
  SESSION_MIGRATIONS,
  TypeOrmSessionStore,
  type CheckpointTarget,
} from 'nest-agent-graceful-shutdown/store';
import { withPostgresServer } from './bench-services';
import { formatMs, summarize, timed, verdict, type Summary } from './bench-stats';
import { renderTable } from './bench-table';

/** The history sizes and amount of work of the checkpoint benchmark. */
export interface PgCheckpointOptions {
  /** History lengths compared: the small one first. */
  sizes: readonly [number, number];
  /** Threads per size; spreading the steps over many threads keeps each history near its size. */
  threadsPerSize: number;
  /** Unmeasured ReAct steps per thread first (two checkpoints each). */
  warmupSteps: number;
  /** Measured ReAct steps per thread (two checkpoints each). */
  timedSteps: number;
}

/** Checkpoint times for one history size, in ms. */
export interface SizeTimings {
  size: number;
  /** History lengths the timed checkpoints were appended to, inclusive. */
  during: [number, number];
  summary: Summary;
}

/** What the checkpoint benchmark found. */
export interface PgCheckpointResult {
  options: PgCheckpointOptions;
  small: SizeTimings;
  large: SizeTimings;
}

const RATIO_TARGET = 1.5;
// Ordinary sizes for a ReAct step: a short thought, a tool call, a tool result of about 1 kB.
const THOUGHT = 'Looking the figures up before answering. '.repeat(4);
const ARGUMENTS = JSON.stringify({ query: 'quarterly revenue by region', limit: 20 });
const RESULT = JSON.stringify({
  rows: Array.from({ length: 20 }, (_, i) => ({ region: `region-${i}`, revenue: 1_000 + i })),
});

type Thread = Omit<CheckpointTarget, 'phase'>;

const newCall = (): ToolCall => ({ id: randomUUID(), name: 'search', arguments: ARGUMENTS });
const assistant = (call: ToolCall): AgentMessage => ({
  id: randomUUID(),
  role: 'assistant',
  content: THOUGHT,
  toolCalls: [call],
});
const toolResult = (call: ToolCall): AgentMessage => ({
  id: randomUUID(),
  role: 'tool',
  content: RESULT,
  toolCallId: call.id,
});

/** A running thread with `size` messages: a user message, then assistant and tool messages in turn. */
async function buildThread(
  store: TypeOrmSessionStore,
  threadId: string,
  size: number,
): Promise<Thread> {
  const thread: Thread = { threadId, runId: `${threadId}-run`, runKey: randomUUID(), iteration: 0 };
  const user: AgentMessage = {
    id: randomUUID(),
    role: 'user',
    content: 'How did the regions do this quarter?',
  };
  await store.startRun({
    ...thread,
    ownerId: 'bench-user',
    instanceId: 'bench-instance',
    messages: [user],
  });
  const history: AgentMessage[] = [];
  while (history.length < size - 1) {
    const call = newCall();
    history.push(assistant(call), toolResult(call));
  }
  await store.appendMessages({ ...thread, phase: 'reasoning' }, history.slice(0, size - 1));
  return thread;
}

const elapsedMs = async (work: () => Promise<void>): Promise<number> => (await timed(work)).ms;

/**
 * One ReAct step as the runtime checkpoints it: the assistant message, the tool call's start
 * record, the tool message. The two message appends are the checkpoints timed; the start
 * record is written untimed because the tool message's checkpoint then finishes it.
 */
async function step(store: TypeOrmSessionStore, thread: Thread, samples?: number[]): Promise<void> {
  thread.iteration++;
  const call = newCall();
  const times = [
    await elapsedMs(() =>
      store.appendMessages({ ...thread, phase: 'reasoning' }, [assistant(call)]),
    ),
  ];
  await store.recordToolCallStarted({ ...thread, phase: 'acting' }, call);
  times.push(
    await elapsedMs(() => store.appendMessages({ ...thread, phase: 'acting' }, [toolResult(call)])),
  );
  samples?.push(...times);
}

/**
 * Builds `threadsPerSize` threads of each size in one fresh database, then runs the steps,
 * alternating which size goes first so drift in load and table growth hits both alike.
 */
export async function measurePgCheckpoint(
  options: PgCheckpointOptions,
): Promise<PgCheckpointResult> {
  return withPostgresServer(async (server) => {
    const url = await server.createDatabase('bench_checkpoint');
    const dataSource = new DataSource({
      type: 'postgres',
      url,
      entities: SESSION_ENTITIES,
      migrations: SESSION_MIGRATIONS,
      migrationsRun: true,
    });
    await dataSource.initialize();
    try {
      const store = new TypeOrmSessionStore(dataSource);
      const threads: Thread[][] = [[], []];
      for (let t = 0; t < options.threadsPerSize; t++) {
        for (const [s, size] of options.sizes.entries())
          threads[s].push(await buildThread(store, `bench-${size}-${t}`, size));
      }
      // So autovacuum after the bulk build does not land in the timing, and plans see real statistics.
      await dataSource.query('VACUUM ANALYZE');
      const samples: number[][] = [[], []];
      for (let round = 0; round < options.warmupSteps + options.timedSteps; round++) {
        const timedRound = round >= options.warmupSteps;
        for (let t = 0; t < options.threadsPerSize; t++) {
          for (const s of (round + t) % 2 === 0 ? [0, 1] : [1, 0])
            await step(store, threads[s][t], timedRound ? samples[s] : undefined);
        }
      }
      const timings = (s: number): SizeTimings => {
        const size = options.sizes[s];
        const first = size + 2 * options.warmupSteps;
        return {
          size,
          during: [first, first + 2 * options.timedSteps - 1],
          summary: summarize(samples[s]),
        };
      };
      return { options, small: timings(0), large: timings(1) };
    } finally {
      await dataSource.destroy();
    }
  });
}

/** Per-size checkpoint times and the large/small ratio (medians decide; means shown too). */
export function pgCheckpointReport(result: PgCheckpointResult): string {
  const { options, small, large } = result;
  const row = (t: SizeTimings) => [
    String(t.size),
    `${t.during[0]}-${t.during[1]}`,
    String(t.summary.count),
    formatMs(t.summary.mean, 3),
    formatMs(t.summary.p50, 3),
    formatMs(t.summary.p95, 3),
    formatMs(t.summary.max, 3),
  ];
  const table = renderTable(
    [
      { heading: 'history' },
      { heading: 'messages while timed', align: 'right' },
      { heading: 'checkpoints', align: 'right' },
      { heading: 'mean', align: 'right' },
      { heading: 'p50', align: 'right' },
      { heading: 'p95', align: 'right' },
      { heading: 'max', align: 'right' },
    ],
    [row(small), row(large)],
  );
  const medianRatio = large.summary.p50 / small.summary.p50;
  const meanRatio = large.summary.mean / small.summary.mean;
  return [
    `(e) checkpoint cost on PostgreSQL: real server, TypeOrmSessionStore.appendMessages of one message`,
    `    (assistant, then tool, per ReAct step); ${options.threadsPerSize} threads per size, ${options.warmupSteps} warm-up + ${options.timedSteps} timed steps`,
    `    per thread, sizes interleaved`,
    '',
    table,
    '',
    `ratio ${large.size}/${small.size} <= ${RATIO_TARGET} (medians): ${medianRatio.toFixed(2)}  ${verdict(medianRatio <= RATIO_TARGET)}  (means: ${meanRatio.toFixed(2)})`,
  ].join('\n');
}
