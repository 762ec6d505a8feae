import type { BaseMessage } from '@langchain/core/messages';
import type { BaseEvent } from '@ag-ui/core';
import type { AgentMessage } from '../agent/agent-message.js';
import { StopReason } from '../agent/stop-reason.js';
import type { DurableAgent } from '../handle/run-handle.interface.js';
import { startMemoryRun } from '../testing/memory-run.js';
import { GRAPH_STATE_ADAPTED_EVENT } from './graph-state-adaptation.js';
import { langGraphAgent } from './langgraph-agent.js';
import {
  acrossChange,
  interruptedReleaseOne,
  releaseOne,
  releaseTwo,
  resumeMessage,
} from './release-graphs.fixtures.js';
import { ScriptedChatModel } from './scripted-chat-model.fixtures.js';

/** A resume of the interrupted release-1 run by `agent`; `history()` is the thread's after it. */
function resume(
  agent: DurableAgent,
  earlier: { history: AgentMessage[]; state: unknown },
  savedState = earlier.state,
) {
  const run = startMemoryRun(agent, {
    history: earlier.history,
    prelude: [resumeMessage],
    resumed: true,
    savedState,
  });
  return {
    ...run,
    history: () => [...earlier.history, resumeMessage, ...run.checkpointer.messages],
  };
}

const adapted = (events: BaseEvent[]) =>
  events
    .filter((event) => (event as { name?: string }).name === GRAPH_STATE_ADAPTED_EVENT)
    .map((event) => (event as { value?: unknown }).value);

describe('a saved LangGraph checkpoint that another release of the graph continues', () => {
  it('restarts from the conversation when a next node reads a channel the checkpoint lacks, and the run finishes', async () => {
    const earlier = await interruptedReleaseOne();
    const budgets: number[] = [];
    const model = new ScriptedChatModel([{ text: 'planned answer' }]);
    const run = resume(langGraphAgent(releaseTwo(model, budgets)), earlier);

    expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(adapted(run.events)).toEqual([
      { decision: 'restarted_from_messages', reason: 'missing channel plan read by agent' },
    ]);
    expect(budgets).toEqual([5]);
    expect(model.requests[0].map((m: BaseMessage) => m.getType())).toEqual([
      'human',
      'ai',
      'tool',
      'system',
    ]);
  });

  it('takes a later turn on the same thread without adapting again', async () => {
    const earlier = await interruptedReleaseOne();
    const model = new ScriptedChatModel([{ text: 'planned answer' }, { text: 'second answer' }]);
    const agent = langGraphAgent(releaseTwo(model, []));
    const first = resume(agent, earlier);
    await first.outcome;
    const question: AgentMessage = { id: 'u2', role: 'user', content: 'and then?' };
    const later = startMemoryRun(agent, {
      history: first.history(),
      prelude: [question],
      savedState: first.checkpointer.state,
    });

    expect(await later.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(adapted(later.events)).toEqual([]);
    expect(later.checkpointer.messages.map((m) => m.content)).toEqual([
      'and then?',
      'second answer',
    ]);
  });

  it('resumes the checkpoint when a node that is not next was renamed', async () => {
    const earlier = await interruptedReleaseOne();
    const model = new ScriptedChatModel([{ text: 'done' }]);
    const run = resume(langGraphAgent(releaseOne(model, { tools: 'act' })), earlier);

    expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(adapted(run.events)).toEqual([]);
    expect(model.calls).toBe(1);
  });

  it('restarts from the conversation when a next node of the checkpoint is not in the graph', async () => {
    const earlier = await interruptedReleaseOne();
    const model = new ScriptedChatModel([{ text: 'done' }]);
    const run = resume(langGraphAgent(releaseOne(model, { agent: 'assistant' })), earlier);

    expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(adapted(run.events)).toEqual([
      { decision: 'restarted_from_messages', reason: 'unknown next node agent' },
    ]);
    expect(run.checkpointer.messages.map((m) => m.content)).toEqual([
      'you were interrupted',
      'done',
    ]);
  });

  it("resumes the checkpoint with the channel values of the app's migration", async () => {
    const earlier = await interruptedReleaseOne();
    const budgets: number[] = [];
    const model = new ScriptedChatModel([{ text: 'migrated answer' }]);
    const agent = acrossChange(langGraphAgent(releaseTwo(model, budgets)), {
      savedState: earlier.state,
    });
    const run = resume(agent, earlier, { plan: { budget: 7 } });

    expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(adapted(run.events)).toEqual([
      { decision: 'migrated', reason: 'onVersionChange migrated the graph state' },
    ]);
    // `planner` did not run: `agent` went on from the checkpoint with the migrated plan.
    expect(budgets).toEqual([7]);
  });
});
