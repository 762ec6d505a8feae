import type { BaseMessage } from '@langchain/core/messages';
import { interrupt, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import { StopReason } from '../agent/stop-reason.js';
import { startMemoryRun } from '../testing/memory-run.js';
import { langGraphAgent } from './langgraph-agent.js';
import { langChainTool, ScriptedChatModel } from './scripted-chat-model.fixtures.js';

const user: AgentMessage = { id: 'u1', role: 'user', content: 'do the steps' };
const call: ToolCall = { id: 'c1', name: 'work', arguments: '{"step":1}' };
const resumeMessage: AgentMessage = {
  id: 'resume',
  role: 'system',
  content: 'you were interrupted',
};

/** One run of `agent` on a memory store, after what an earlier run left; `history()` is the thread's after it. */
function start(
  agent: ReturnType<typeof langGraphAgent>,
  earlier: {
    history?: AgentMessage[];
    state?: unknown;
    pending?: ToolCall[];
    approved?: string[];
    prelude?: AgentMessage[];
  } = {},
) {
  const history = earlier.history ?? [user];
  const run = startMemoryRun(agent, {
    history,
    pending: earlier.pending,
    approved: earlier.approved,
    prelude: earlier.prelude,
    resumed: earlier.prelude !== undefined,
    savedState: earlier.state,
  });
  return { ...run, history: () => [...history, ...run.checkpointer.messages] };
}

/** A graph of two nodes without a model, the second working for as long as `gate` stays shut, then a model node. */
function gatedGraph(
  model: ScriptedChatModel,
  gate: { opened: Promise<void>; entered: () => void },
  ran: string[],
) {
  return new StateGraph(MessagesAnnotation)
    .addNode('plan', () => {
      ran.push('plan');
      return { messages: [] };
    })
    .addNode('gather', async () => {
      ran.push('gather');
      gate.entered();
      await gate.opened;
      return { messages: [] };
    })
    .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge(START, 'plan')
    .addEdge('plan', 'gather')
    .addEdge('gather', 'agent')
    .compile();
}

describe('langGraphAgent', () => {
  it('stops the super-step in progress on a stop, and resumes from the last boundary: finished nodes do not run again', async () => {
    const model = new ScriptedChatModel([{ text: 'done' }]);
    const ran: string[] = [];
    let entered!: () => void;
    let open!: () => void;
    const inNode = new Promise<void>((resolve) => (entered = resolve));
    const gate = { opened: new Promise<void>((resolve) => (open = resolve)), entered };
    const agent = langGraphAgent(gatedGraph(model, gate, ran));
    const first = start(agent);
    await inNode;
    first.control.requestStop(StopReason.Interrupted, 'shutdown');
    open();

    expect(await first.outcome).toMatchObject({ stopReason: StopReason.Interrupted });
    expect(model.calls).toBe(0);
    expect(first.checkpointer.state).toMatchObject({ langgraph: 1 });

    const again = start(agent, {
      history: first.history(),
      state: first.checkpointer.state,
      prelude: [resumeMessage],
    });
    expect(await again.outcome).toMatchObject({ stopReason: StopReason.Completed });
    // `gather` was cut by the stop, so it runs again; `plan` finished at a boundary before.
    expect(ran).toEqual(['plan', 'gather', 'gather']);
    expect(model.requests[0].map((m: BaseMessage) => m.id)).toEqual(['u1', 'resume']);
  });

  it('keeps the messages out of the saved graph state: the session holds them once', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [call] }, { text: 'all done' }]);
    const graph = reactGraph(model, false);
    const run = start(langGraphAgent(graph));

    expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(run.checkpointer.messages.map((m) => m.role)).toEqual([
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(run.checkpointer.state).toMatchObject({
      langgraph: 1,
      namespaces: { '': expect.any(Object) },
    });
    expect(JSON.stringify(run.checkpointer.state)).not.toContain('all done');
  });

  it("maps the graph's interrupt() to the approval pause, and hands the human's answer to it on the approved run", async () => {
    const answers: unknown[] = [];
    const model = new ScriptedChatModel([{ toolCalls: [call] }, { text: 'done' }]);
    const agent = langGraphAgent(reactGraph(model, true, answers), {
      toolTraits: { work: { requiresApproval: true } },
    });
    const paused = start(agent);

    expect(await paused.outcome).toMatchObject({
      stopReason: StopReason.AwaitingApproval,
      approvals: [call],
    });
    const approved = start(agent, {
      history: paused.history(),
      state: paused.checkpointer.state,
      pending: [call],
      approved: ['c1'],
    });

    expect(await approved.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(answers).toEqual([{ approved: true, approvedToolCallIds: ['c1'] }]);
    expect(approved.checkpointer.messages.map((m) => [m.role, m.content])).toEqual([
      ['tool', 'step 1 done'],
      ['assistant', 'done'],
    ]);
  });
});

/** The ReAct graph, with a review node that calls interrupt() before the tools when `review` is set. */
function reactGraph(model: ScriptedChatModel, review: boolean, answers: unknown[] = []) {
  const work = langChainTool({
    name: 'work',
    execute: async (args) => `step ${String(args.step)} done`,
  });
  const builder = new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode('review', () => {
      answers.push(interrupt({ question: 'run the tool calls?' }));
      return { messages: [] };
    })
    .addNode('tools', new ToolNode([work]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', (state) =>
      toolsCondition(state) === 'tools' ? (review ? 'review' : 'tools') : '__end__',
    )
    .addEdge('review', 'tools')
    .addEdge('tools', 'agent');
  return builder.compile();
}
