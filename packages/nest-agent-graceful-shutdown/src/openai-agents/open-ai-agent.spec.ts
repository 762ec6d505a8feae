import { Agent, Runner, tool } from '@openai/agents';
import type { AgentHook } from '../agent/agent-hook.interface.js';
import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import { RunControl } from '../agent/run-control.js';
import { StopReason } from '../agent/stop-reason.js';
import { driveRun } from '../handle/drive-run.js';
import { DurableRunHandle } from '../handle/durable-run-handle.js';
import { MemoryCheckpointer } from '../testing/memory-checkpointer.js';
import { openAiAgent } from './open-ai-agent.js';
import { ScriptedModel, type ScriptedAnswer } from './scripted-model.fixtures.js';

const user: AgentMessage = { id: 'u1', role: 'user', content: 'do the steps' };
const resume: AgentMessage = {
  id: 'r1',
  role: 'system',
  content: 'the previous run was interrupted',
};
const call = (id: string, step: number): ToolCall => ({
  id,
  name: 'work',
  arguments: JSON.stringify({ step }),
});

/** An SDK agent with one `work` tool on a scripted model, under the module. */
function scripted(answers: ScriptedAnswer[], needsApproval = false) {
  const model = new ScriptedModel(answers);
  const executions: unknown[] = [];
  const work = tool({
    name: 'work',
    description: 'does one step',
    parameters: { type: 'object', properties: {}, additionalProperties: true, required: [] },
    strict: false,
    needsApproval,
    execute: (args) => {
      executions.push(args);
      return `done ${JSON.stringify(args)}`;
    },
  });
  const agent = openAiAgent(
    new Agent({ name: 'worker', instructions: 'work', model, tools: [work] }),
    { runner: new Runner({ tracingDisabled: true }) },
  );
  return { agent, model, executions };
}

function run(
  agent: ReturnType<typeof scripted>['agent'],
  options: {
    history: AgentMessage[];
    savedState?: unknown;
    prelude?: AgentMessage[];
    pending?: ToolCall[];
    approved?: string[];
    hooks?: AgentHook[];
  },
) {
  const checkpointer = new MemoryCheckpointer();
  const handle = new DurableRunHandle({
    threadId: 't',
    runId: 'r',
    history: options.history,
    savedState: options.savedState,
    prelude: options.prelude,
    pendingToolCalls: options.pending,
    approvedToolCallIds: new Set(options.approved ?? []),
    hooks: options.hooks ?? [],
    control: new RunControl(),
    checkpointer,
    emit: () => undefined,
    toolTraits: (name) => agent.toolTraits(name),
  });
  return { outcome: driveRun(agent, handle), checkpointer };
}

/** Stops the run at its second pre-reasoning safe point (after the first tool result). */
const stopAtSecondReasoning: AgentHook = {
  preReasoning: (event) =>
    event.iteration >= 1 ? { stop: StopReason.Interrupted, detail: 'shutdown' } : undefined,
};

/** The input items of the model's last request. */
const lastInput = (model: ScriptedModel) =>
  model.requests.at(-1)?.input as Array<Record<string, unknown>>;

describe('openAiAgent', () => {
  it('keeps the SDK RunState when a run stops before reasoning', async () => {
    const { agent } = scripted([{ toolCalls: [call('c1', 1)] }, { text: 'done' }]);
    const first = run(agent, { history: [user], hooks: [stopAtSecondReasoning] });

    expect(await first.outcome).toMatchObject({
      stopReason: StopReason.Interrupted,
      phase: 'reasoning',
    });
    expect(first.checkpointer.state).toMatchObject({
      format: 'openai-agents/run-state',
      runState: expect.any(String),
    });
  });

  it('continues from the saved RunState, with the resume message after its history', async () => {
    const { agent, model } = scripted([{ toolCalls: [call('c1', 1)] }, { text: 'done' }]);
    const first = run(agent, { history: [user], hooks: [stopAtSecondReasoning] });
    await first.outcome;

    const second = run(agent, {
      history: [user, ...first.checkpointer.messages],
      savedState: first.checkpointer.state,
      prelude: [resume],
    });

    expect(await second.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(lastInput(model).slice(-3)).toMatchObject([
      { type: 'function_call', id: 'item_c1', callId: 'c1' },
      { type: 'function_call_result', callId: 'c1' },
      { role: 'system', content: resume.content },
    ]);
    expect(second.checkpointer.state).toBeNull();
  });

  it('continues from the stored messages when the saved RunState tells another conversation', async () => {
    const { agent, model } = scripted([{ toolCalls: [call('c1', 1)] }, { text: 'done' }]);
    const first = run(agent, { history: [user], hooks: [stopAtSecondReasoning] });
    await first.outcome;
    const edited = [
      user,
      ...first.checkpointer.messages,
      { id: 'u2', role: 'user', content: 'and more' } as AgentMessage,
    ];

    expect(
      await run(agent, { history: edited, savedState: first.checkpointer.state }).outcome,
    ).toMatchObject({ stopReason: StopReason.Completed });
    expect(
      lastInput(model).find((item) => item.callId === 'c1' && item.type === 'function_call'),
    ).not.toHaveProperty('id');
  });

  it("pauses for the SDK's needsApproval, saving its RunState, and the approval runs the call once from that state", async () => {
    const { agent, model, executions } = scripted(
      [{ toolCalls: [call('c1', 1)] }, { text: 'done' }],
      true,
    );
    const first = run(agent, { history: [user] });
    const paused = await first.outcome;

    const second = run(agent, {
      history: [user, ...first.checkpointer.messages],
      savedState: first.checkpointer.state,
      pending: [call('c1', 1)],
      approved: ['c1'],
    });

    expect(paused).toMatchObject({
      stopReason: StopReason.AwaitingApproval,
      approvals: [call('c1', 1)],
    });
    expect(await second.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(executions).toEqual([{ step: 1 }]);
    expect(lastInput(model)).toContainEqual(
      expect.objectContaining({ type: 'function_call', id: 'item_c1' }),
    );
  });

  it('answers a rejected call from the paused RunState with the stored rejection, without running it', async () => {
    const { agent, model, executions } = scripted(
      [{ toolCalls: [call('c1', 1)] }, { text: 'done' }],
      true,
    );
    const first = run(agent, { history: [user] });
    await first.outcome;
    const rejection: AgentMessage = {
      id: 'x1',
      role: 'tool',
      toolCallId: 'c1',
      content: 'rejected: a human declined this tool call',
    };

    const second = run(agent, {
      history: [user, ...first.checkpointer.messages, rejection],
      savedState: first.checkpointer.state,
    });

    expect(await second.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(executions).toEqual([]);
    expect(lastInput(model)).toContainEqual(
      expect.objectContaining({
        type: 'function_call_result',
        callId: 'c1',
        output: expect.objectContaining({ text: rejection.content }),
      }),
    );
  });

  it('reports a tool with needsApproval as requiring approval, and the declared traits of the others', async () => {
    const { agent } = scripted([{ text: 'done' }], true);
    await run(agent, { history: [user] }).outcome;

    expect(agent.toolTraits('work')).toEqual({ requiresApproval: true });
    expect(agent.toolTraits('missing')).toBeUndefined();
  });
});
