import { randomUUID } from 'node:crypto';
import { HumanMessage } from '@langchain/core/messages';
import { MessagesAnnotation, StateGraph, START } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { Pool } from 'pg';
import type { PostgresServer } from 'dev-services';
import { RunControl } from '../../packages/nest-agent-graceful-shutdown/src/agent/run-control';
import { StopReason } from '../../packages/nest-agent-graceful-shutdown/src/agent/stop-reason';
import { AgentRuntime } from '../../packages/nest-agent-graceful-shutdown/src/runtime/agent-runtime';
import type { AdapterSubject } from './adapter-overhead.bench';
import { aiSdkSubject } from './ai-sdk-subject';
import { InstantChatModel, langGraphSubject, noopTool } from './langgraph-subject';
import { ModuleInstance } from './module-run';
import { NOOP_HISTORY, noopAgent, noopCheckpointer, noopEmit } from './noop-agent';
import { openAiAgentsSubject } from './openai-agents-subject';
import { markToolCall, timeWrite } from './step-clock';

/** What a subject persists to: nothing (the floor), the module's store, or LangGraph's own checkpointer (the peer). */
export type SubjectKind = 'floor' | 'module' | 'peer';

/** One measurement's worth of a subject: runs on demand, then closed. */
export interface SubjectCase {
  /** One run of the subject's agent on a new thread; resolves once it completed (throws otherwise). */
  run(): Promise<void>;
  close(): Promise<void>;
}

/** One line of the throughput tables and chart. */
export interface ThroughputSubject {
  name: string;
  framework: string;
  kind: SubjectKind;
  /** True when each step waits for its writes (timed, see `timeWrite`): the module, and the peer with `sync` durability. */
  writesHoldSteps: boolean;
  /** Prepares a case: a fresh database on `postgres` for the subjects that persist. */
  open(steps: number, postgres: PostgresServer): Promise<SubjectCase>;
}

/** An agent framework as the bench drives it: `steps` tool rounds, each tool call marked (see `markToolCall`). */
type Framework = { name: string; subject: (steps: number) => AdapterSubject };

/** The module's own ReAct runtime on the no-op agent: its floor runs it with nothing stored. */
function nativeSubject(steps: number): AdapterSubject {
  const agent = noopAgent(steps);
  const runtime = new AgentRuntime({
    ...agent,
    tools: agent.tools.map((tool) => ({ ...tool, execute: async () => (markToolCall(), 'ok') })),
  });
  return {
    framework: 'native runtime',
    async plain() {
      const input = { threadId: randomUUID(), runId: 'run-1', history: NOOP_HISTORY };
      const outcome = await runtime.execute(input, {
        hooks: [],
        control: new RunControl(),
        checkpointer: noopCheckpointer,
        emit: noopEmit,
      });
      if (outcome.stopReason !== StopReason.Completed)
        throw new Error(`benchmark run ended with ${outcome.stopReason}`);
    },
    durable: runtime,
  };
}

const FRAMEWORKS: Framework[] = [
  { name: 'native runtime', subject: nativeSubject },
  { name: 'AI SDK', subject: (steps) => aiSdkSubject(steps, markToolCall) },
  { name: 'LangGraph', subject: (steps) => langGraphSubject(steps, markToolCall) },
  { name: 'OpenAI Agents SDK', subject: (steps) => openAiAgentsSubject(steps, markToolCall) },
];

let databases = 0;
const freshDatabase = (postgres: PostgresServer) =>
  postgres.createDatabase(`throughput_${++databases}`);

/** The framework alone: nothing persisted, nothing streamed. */
const floor = (framework: Framework): ThroughputSubject => ({
  name: `${framework.name}, no persistence`,
  framework: framework.name,
  kind: 'floor',
  writesHoldSteps: false,
  open: async (steps) => {
    const subject = framework.subject(steps);
    return { run: () => subject.plain(), close: async () => undefined };
  },
});

/** The framework through the module: its adapter, the run handle, the TypeORM PostgreSQL store and event log. */
const underModule = (framework: Framework): ThroughputSubject => ({
  name: `${framework.name} + module`,
  framework: framework.name,
  kind: 'module',
  writesHoldSteps: true,
  open: async (steps, postgres) => {
    const { durable } = framework.subject(steps);
    const instance = await ModuleInstance.open(await freshDatabase(postgres));
    return { run: () => instance.run(durable), close: () => instance.close() };
  },
});

/**
 * The peer: the same ReAct graph (instant chat model, no-op tool) compiled with LangGraph's own
 * `PostgresSaver` (a `pg` pool of 10, as TypeORM's), each run a new thread. `sync` durability
 * saves each super-step's checkpoint before the next starts, the guarantee the module gives;
 * `async` (LangGraph's default) saves it while the next step runs.
 */
const langGraphPeer = (durability: 'sync' | 'async'): ThroughputSubject => ({
  name: `LangGraph + PostgresSaver (${durability})`,
  framework: 'LangGraph',
  kind: 'peer',
  writesHoldSteps: durability === 'sync',
  open: async (steps, postgres) => {
    const pool = new Pool({ connectionString: await freshDatabase(postgres), max: 10 });
    const saver = new PostgresSaver(pool);
    await saver.setup();
    // The step's writes: the task's writes, then the super-step's checkpoint (see `timeWrite`).
    const { put, putWrites } = saver;
    saver.put = (...args) => timeWrite(() => put.apply(saver, args));
    saver.putWrites = (...args) => timeWrite(() => putWrites.apply(saver, args));
    const model = new InstantChatModel(steps);
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addNode('tools', new ToolNode([noopTool(markToolCall)]))
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', toolsCondition)
      .addEdge('tools', 'agent')
      .compile({ checkpointer: saver });
    return {
      run: async () => {
        const config = {
          configurable: { thread_id: randomUUID() },
          recursionLimit: 4 * steps + 10,
          durability,
        };
        const { messages } = await graph.invoke({ messages: [new HumanMessage('go')] }, config);
        if (messages.length !== 2 * steps + 2)
          throw new Error(`benchmark graph ended with ${messages.length} messages`);
      },
      close: () => saver.end(),
    };
  },
});

/** Every subject, in the order they run at each concurrency: the floors, the module, the peers. */
export function throughputSubjects(): ThroughputSubject[] {
  return [
    ...FRAMEWORKS.map(floor),
    ...FRAMEWORKS.map(underModule),
    langGraphPeer('sync'),
    langGraphPeer('async'),
  ];
}
