import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { Annotation, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { AgentVersionChange } from '../agent/agent-release.js';
import { StopReason } from '../agent/stop-reason.js';
import type { DurableAgent, RunHandle } from '../handle/run-handle.interface.js';
import { startMemoryRun } from '../testing/memory-run.js';
import { langGraphAgent } from './langgraph-agent.js';
import { langChainTool, ScriptedChatModel } from './scripted-chat-model.fixtures.js';

export const user: AgentMessage = { id: 'u1', role: 'user', content: 'do the steps' };
export const workCall: ToolCall = { id: 'c1', name: 'work', arguments: '{"step":1}' };
export const resumeMessage: AgentMessage = {
  id: 'resume',
  role: 'system',
  content: 'you were interrupted',
};

export const workTool = () =>
  langChainTool({ name: 'work', execute: async (args) => `step ${String(args.step)} done` });

/** The state of release 2: the conversation and the `plan` its `planner` node writes (no default). */
const PlannedState = Annotation.Root({
  ...MessagesAnnotation.spec,
  plan: Annotation<{ budget: number }>(),
});

/** Release 1: the ReAct graph, its nodes named as given. */
export function releaseOne(model: BaseChatModel, names: { agent?: string; tools?: string } = {}) {
  const agent = names.agent ?? 'agent';
  const tools = names.tools ?? 'tools';
  return new StateGraph(MessagesAnnotation)
    .addNode(agent, async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode(tools, new ToolNode([workTool()]))
    .addEdge(START, agent)
    .addConditionalEdges(agent, (state) => (toolsCondition(state) === 'tools' ? tools : '__end__'))
    .addEdge(tools, agent)
    .compile();
}

/** Release 2: a `planner` node first writes `plan`, which `agent` reads (its budget goes to `budgets`). */
export function releaseTwo(
  model: BaseChatModel,
  budgets: number[],
  tools: StructuredToolInterface[] = [workTool()],
) {
  return new StateGraph(PlannedState)
    .addNode('planner', () => ({ plan: { budget: 5 } }))
    .addNode('agent', async (state) => {
      budgets.push(state.plan.budget);
      return { messages: [await model.invoke(state.messages)] };
    })
    .addNode('tools', new ToolNode(tools))
    .addEdge(START, 'planner')
    .addEdge('planner', 'agent')
    .addConditionalEdges('agent', toolsCondition)
    .addEdge('tools', 'agent')
    .compile();
}

/** What an interrupted run of release 1 left: it ran `work`, and was stopped in its second model call. */
export async function interruptedReleaseOne(): Promise<{
  history: AgentMessage[];
  state: unknown;
}> {
  let entered!: () => void;
  const inSecondCall = new Promise<void>((resolve) => (entered = resolve));
  const hold = (n: number) =>
    n === 1 ? (entered(), new Promise<void>(() => undefined)) : undefined;
  const model = new ScriptedChatModel([{ toolCalls: [workCall] }, { text: 'done' }], hold);
  const run = startMemoryRun(langGraphAgent(releaseOne(model)), { history: [user] });
  await inSecondCall;
  run.control.requestStop(StopReason.Interrupted, 'shutdown');
  const outcome = await run.outcome;
  if (outcome.stopReason !== StopReason.Interrupted)
    throw new Error(`release 1 ended ${outcome.stopReason}`);
  return { history: [user, ...run.checkpointer.messages], state: run.checkpointer.state };
}

/** `agent`, seeing `change` as its handle's version change (what the module sets on a resume across releases). */
export function acrossChange(
  agent: DurableAgent,
  change: Partial<AgentVersionChange>,
): DurableAgent {
  const release = { version: '1', fingerprint: 'f1' };
  const versionChange = {
    threadId: 't',
    runId: 'r',
    from: release,
    to: release,
    pendingToolCalls: [],
    savedState: null,
    ...change,
  };
  return {
    toolTraits: (name) => agent.toolTraits(name),
    run: (handle) =>
      agent.run(
        new Proxy(handle, {
          get(target, key) {
            if (key === 'versionChange') return versionChange;
            const value = Reflect.get(target, key, target) as unknown;
            return typeof value === 'function'
              ? (value as (...args: unknown[]) => unknown).bind(target)
              : value;
          },
        }) as RunHandle,
      ),
  };
}
