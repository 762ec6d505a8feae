import { randomUUID } from 'node:crypto';
import type { BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  emptyCheckpoint,
  type BaseCheckpointSaver,
  type Checkpoint,
  type CheckpointMetadata,
} from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import {
  SESSION_ENTITIES,
  SESSION_MIGRATIONS,
  TypeOrmSessionStore,
} from 'nest-agent-graceful-shutdown/store';
// The handle and the LangGraph adapter's checkpointer measured straight from the package's source.
import type { AgentMessage } from '../../packages/nest-agent-graceful-shutdown/src/agent/agent-message';
import { RunControl } from '../../packages/nest-agent-graceful-shutdown/src/agent/run-control';
import { DurableRunHandle } from '../../packages/nest-agent-graceful-shutdown/src/handle/durable-run-handle';
import { HandleCheckpointer } from '../../packages/nest-agent-graceful-shutdown/src/langgraph/handle-checkpointer';
import { toLangChain } from '../../packages/nest-agent-graceful-shutdown/src/langgraph/lc-messages';
import { StoreCheckpointer } from '../../packages/nest-agent-graceful-shutdown/src/session/store-checkpointer';
import { withPostgresServer } from './bench-services';
import { formatMs, summarize, timed, type Summary } from './bench-stats';
import { renderTable, type Column } from './bench-table';

/** The history sizes and amount of work of the LangGraph checkpoint benchmark. */
export interface LangGraphCheckpointOptions {
  /** Messages in the thread before the first step, smallest first. */
  sizes: readonly number[];
  /** Threads per size; each step makes its thread's history two messages longer. */
  threadsPerSize: number;
  /** Unmeasured ReAct steps per thread first. */
  warmupSteps: number;
  /** Measured ReAct steps per thread. */
  timedSteps: number;
}

/** One checkpointer's times per step, in ms: the task's writes, then the checkpoint. */
export type SaverTimings = Record<'put' | 'putWrites', Summary>;

/** Both checkpointers at one history size. */
export interface LangGraphCheckpointSize {
  size: number;
  /** Messages the previous checkpoint held at the timed puts, inclusive. */
  during: [number, number];
  /** Bytes of the messages channel as LangGraph's serializer writes it, at the last step. */
  channelBytes: number;
  adapter: SaverTimings;
  postgresSaver: SaverTimings;
}

/** What the LangGraph checkpoint benchmark found. */
export interface LangGraphCheckpointResult {
  options: LangGraphCheckpointOptions;
  sizes: LangGraphCheckpointSize[];
}

// Ordinary sizes for a ReAct step: a short thought, a tool call, a tool result of about 1 kB.
const SYSTEM = 'You are a careful analyst. Look figures up with the tools before answering.';
const USER = 'How did the regions do this quarter?';
const THOUGHT = 'Looking the figures up before answering. '.repeat(4);
const ARGUMENTS = JSON.stringify({ query: 'quarterly revenue by region', limit: 20 });
const RESULT = JSON.stringify({
  rows: Array.from({ length: 20 }, (_, i) => ({ region: `region-${i}`, revenue: 1_000 + i })),
});

type Versions = Record<string, number>;
/** One checkpointer's copy of a thread: the config of its latest checkpoint, and its samples. */
type Lane = { saver: BaseCheckpointSaver; config: RunnableConfig } & Record<
  'put' | 'putWrites',
  number[]
>;
/** A thread's messages channel, the version it is at, and one lane per checkpointer: the adapter's, then PostgresSaver's. */
type Thread = { messages: BaseMessage[]; version: number; lanes: [Lane, Lane] };

/** An assistant message with a tool call, and the call's result. */
function exchange(): AgentMessage[] {
  const call = { id: `call_${randomUUID()}`, name: 'search', arguments: ARGUMENTS };
  return [
    { id: randomUUID(), role: 'assistant', content: THOUGHT, toolCalls: [call] },
    { id: randomUUID(), role: 'tool', content: RESULT, toolCallId: call.id },
  ];
}

/** `size` messages: a system and a user message, then exchanges. */
function history(size: number): AgentMessage[] {
  const messages: AgentMessage[] = [SYSTEM, USER].map((content, i) => ({
    id: randomUUID(),
    role: i === 0 ? 'system' : 'user',
    content,
  }));
  while (messages.length < size) messages.push(...exchange());
  return messages.slice(0, size);
}

/** The root checkpoint LangGraph puts after the tool node of a ReAct graph ran: messages and the edge back to the model changed. */
function checkpointAfterTools(
  messages: BaseMessage[],
  version: number,
): { checkpoint: Checkpoint; newVersions: Versions } {
  const channel_versions: Versions = {
    __start__: 2,
    messages: version,
    'branch:to:agent': version,
    'branch:to:tools': version - 1,
  };
  const checkpoint: Checkpoint = {
    ...emptyCheckpoint(),
    channel_values: { messages, __pregel_tasks: [], 'branch:to:agent': null },
    channel_versions,
    versions_seen: {
      __input__: {},
      __start__: { __start__: 1 },
      agent: { 'branch:to:agent': version - 2 },
      tools: { 'branch:to:tools': version - 1 },
    },
  };
  return { checkpoint, newVersions: { messages: version, 'branch:to:agent': version } };
}

const metadataAt = (version: number): CheckpointMetadata => ({
  source: 'loop',
  step: version - 2,
  parents: {},
});

/** A thread of `size` messages on both sides: a running session with the adapter's checkpointer, and PostgresSaver's first checkpoint. */
async function buildThread(
  store: TypeOrmSessionStore,
  postgresSaver: PostgresSaver,
  size: number,
): Promise<Thread> {
  const run = { threadId: randomUUID(), runId: 'run-1', runKey: randomUUID() };
  const stored = history(size);
  await store.startRun({
    ...run,
    ownerId: 'bench-user',
    instanceId: 'bench-instance',
    messages: stored,
  });
  const checkpointer = new StoreCheckpointer(store, run);
  const handle = new DurableRunHandle({
    ...run,
    history: stored,
    hooks: [],
    control: new RunControl(),
    checkpointer,
    emit: () => undefined,
  });
  const config = { configurable: { thread_id: run.threadId, checkpoint_ns: '' } };
  const laneOf = (saver: BaseCheckpointSaver): Lane => ({ saver, config, put: [], putWrites: [] });
  const thread: Thread = {
    messages: stored.map(toLangChain),
    version: 3,
    lanes: [laneOf(new HandleCheckpointer(handle, 'messages')), laneOf(postgresSaver)],
  };
  const { checkpoint } = checkpointAfterTools(thread.messages, thread.version);
  const versions = checkpoint.channel_versions as Versions;
  for (const lane of thread.lanes)
    lane.config = await lane.saver.put(
      lane.config,
      checkpoint,
      metadataAt(thread.version),
      versions,
    );
  return thread;
}

/**
 * One ReAct step as LangGraph checkpoints the tool node's super-step: the task's writes
 * (`putWrites`), then the checkpoint whose messages channel gained the assistant message
 * with its tool call and the tool result. Both lanes get the same content, in `order`.
 */
async function step(thread: Thread, order: readonly number[], timedStep: boolean): Promise<void> {
  const [assistant, result] = exchange().map(toLangChain);
  thread.messages = [...thread.messages, assistant, result];
  thread.version++;
  const writes: Parameters<BaseCheckpointSaver['putWrites']>[1] = [
    ['messages', [result]],
    ['branch:to:agent', null],
  ];
  for (const lane of order.map((i) => thread.lanes[i])) {
    const { checkpoint, newVersions } = checkpointAfterTools(thread.messages, thread.version);
    const taskId = randomUUID();
    const { ms: writesMs } = await timed(() => lane.saver.putWrites(lane.config, writes, taskId));
    const { value: next, ms: putMs } = await timed(() =>
      lane.saver.put(lane.config, checkpoint, metadataAt(thread.version), newVersions),
    );
    lane.config = next;
    if (!timedStep) continue;
    lane.put.push(putMs);
    lane.putWrites.push(writesMs);
  }
}

/**
 * Builds `threadsPerSize` threads of each size in one PostgreSQL cluster, the adapter's session
 * tables in one database and PostgresSaver's tables in another, then runs the steps with the
 * sizes and the order of the two checkpointers interleaved, so drift hits all alike.
 */
export async function measureLangGraphCheckpoint(
  options: LangGraphCheckpointOptions,
): Promise<LangGraphCheckpointResult> {
  return withPostgresServer(async (server) => {
    const url = await server.createDatabase('bench_langgraph_session');
    // What `PostgresSaver.fromConnString` builds, with the pool at hand for VACUUM; it connects on first use.
    const pool = new Pool({
      connectionString: await server.createDatabase('bench_langgraph_saver'),
    });
    const postgresSaver = new PostgresSaver(pool);
    const dataSource = new DataSource({
      type: 'postgres',
      url,
      entities: SESSION_ENTITIES,
      migrations: SESSION_MIGRATIONS,
      migrationsRun: true,
    });
    try {
      await dataSource.initialize();
      await postgresSaver.setup();
      const store = new TypeOrmSessionStore(dataSource);
      const threads = options.sizes.map((): Thread[] => []);
      for (let t = 0; t < options.threadsPerSize; t++) {
        for (const [s, size] of options.sizes.entries())
          threads[s].push(await buildThread(store, postgresSaver, size));
      }
      // So autovacuum after the bulk build does not land in the timing, and plans see real statistics.
      await dataSource.query('VACUUM ANALYZE');
      await pool.query('VACUUM ANALYZE');
      for (let round = 0; round < options.warmupSteps + options.timedSteps; round++) {
        for (let t = 0; t < options.threadsPerSize; t++) {
          for (let s = 0; s < options.sizes.length; s++) {
            const index = (t + round + s) % options.sizes.length;
            await step(
              threads[index][t],
              (round + t) % 2 === 0 ? [0, 1] : [1, 0],
              round >= options.warmupSteps,
            );
          }
        }
      }
      const sizes: LangGraphCheckpointSize[] = [];
      for (const [s, size] of options.sizes.entries()) {
        const of = (i: number, kind: keyof SaverTimings) =>
          summarize(threads[s].flatMap((thread) => thread.lanes[i][kind]));
        const lanes = (i: number): SaverTimings => ({
          put: of(i, 'put'),
          putWrites: of(i, 'putWrites'),
        });
        const first = size + 2 * options.warmupSteps;
        const [, bytes] = await postgresSaver.serde.dumpsTyped(threads[s][0].messages);
        sizes.push({
          size,
          during: [first, first + 2 * (options.timedSteps - 1)],
          channelBytes: bytes.length,
          adapter: lanes(0),
          postgresSaver: lanes(1),
        });
      }
      return { options, sizes };
    } finally {
      await postgresSaver.end();
      if (dataSource.isInitialized) await dataSource.destroy();
    }
  });
}

/** Per size: the checkpoint time of each checkpointer and their ratio, then how each grows with the history. */
export function langGraphCheckpointReport(result: LangGraphCheckpointResult): string {
  const { options, sizes } = result;
  const headings = [
    'history',
    'held before put',
    'puts',
    'adapter p50',
    'adapter p90',
    'PostgresSaver p50',
    'PostgresSaver p90',
    'PostgresSaver / adapter',
  ];
  const table = renderTable(
    [...headings, 'messages blob'].map((heading, i): Column => ({
      heading,
      align: i === 0 ? 'left' : 'right',
    })),
    sizes.map(({ size, during, adapter, postgresSaver, channelBytes }) => [
      String(size),
      `${during[0]}-${during[1]}`,
      String(adapter.put.count),
      ...[adapter.put.p50, adapter.put.p90, postgresSaver.put.p50, postgresSaver.put.p90].map(
        (ms) => formatMs(ms, 3),
      ),
      `${(postgresSaver.put.p50 / adapter.put.p50).toFixed(2)}x`,
      `${(channelBytes / 1024).toFixed(0)} kB`,
    ]),
  );
  const small = sizes[0];
  const large = sizes[sizes.length - 1];
  const growth = (pick: (r: LangGraphCheckpointSize) => Summary) =>
    `${(pick(large).p50 / pick(small).p50).toFixed(2)}x`;
  const writes = (pick: (r: LangGraphCheckpointSize) => Summary) =>
    sizes.map((r) => formatMs(pick(r).p50, 3)).join(' / ');
  return [
    `(g) LangGraph checkpoint cost on PostgreSQL: put() of one ReAct step's checkpoint (the messages channel with the`,
    `    history plus an assistant message with a tool call and its ~1 kB tool result), the LangGraph adapter's`,
    `    HandleCheckpointer (new messages to TypeOrmSessionStore, the rest as run state) vs LangGraph's PostgresSaver,`,
    `    one PostgreSQL server; ${options.threadsPerSize} threads per size, ${options.warmupSteps} warm-up + ${options.timedSteps} timed steps per thread, interleaved`,
    '',
    table,
    '',
    `growth ${large.size}/${small.size} (p50): adapter ${growth((r) => r.adapter.put)}, PostgresSaver ${growth((r) => r.postgresSaver.put)}`,
    `putWrites before each put, p50 at ${sizes.map((r) => r.size).join(' / ')}: adapter ${writes((r) => r.adapter.putWrites)} (kept in memory until the put),`,
    `    PostgresSaver ${writes((r) => r.postgresSaver.putWrites)}`,
  ].join('\n');
}
