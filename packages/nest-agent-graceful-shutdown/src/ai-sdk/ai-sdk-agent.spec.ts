// Runs on AI SDK 7 here and on AI SDK 6 in the oldest-peers run (test/node-versions.e2e-spec.ts): each expectation is the installed major's.
import { jsonSchema, stepCountIs, tool, type ToolSet } from 'ai';
import { StopReason } from '../agent/stop-reason.js';
import { startMemoryRun } from '../testing/memory-run.js';
import { aiSdkAgent, AiSdkAgent } from './ai-sdk-agent.js';
import { installedAi } from './installed-ai.js';
import { scriptedModel } from './scripted-model.fixtures.js';

const ai = installedAi();
const user = { id: 'u1', role: 'user' as const, content: 'go' };
const workCall = { id: 'c1', name: 'work', arguments: '{}' };

/** A `work` tool that records the options each of its executions got. */
function recordingTool() {
  const seen: Array<Record<string, unknown>> = [];
  const work = tool({
    description: 'work',
    inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
    execute: (_input, options) => (
      seen.push(options as unknown as Record<string, unknown>),
      'done'
    ),
  });
  return { tools: { work } as ToolSet, seen };
}

describe(`aiSdkAgent on ai ${ai.version}`, () => {
  it('refuses a model id string with a TypeError that says to pass a model instance', () => {
    expect(() => aiSdkAgent({ model: 'openai/gpt-4o-mini' })).toThrow(
      new RegExp(`needs a model instance.*AI SDK ${ai.major}`),
    );
  });

  it('refuses a model of a specification the installed ai cannot wrap, naming the installed version', () => {
    const other = ai.major === 6 ? 'v4' : 'v2';
    const { model } = scriptedModel([{ text: 'hi' }], undefined, other);
    expect(() => aiSdkAgent({ model })).toThrow(
      new RegExp(
        `specification ${other}, but the installed ai ${ai.version.replace(/\./g, '\\.')} wraps only`,
      ),
    );
  });

  it.each(ai.modelSpecs)('runs a model of specification %s to the end', async (spec) => {
    const { model, calls } = scriptedModel(
      [{ toolCalls: [workCall] }, { text: 'all done' }],
      undefined,
      spec,
    );
    const { tools, seen } = recordingTool();
    const run = startMemoryRun(aiSdkAgent({ model, tools, stopWhen: stepCountIs(5) }), {
      history: [user],
    });

    expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(calls()).toBe(2);
    expect(seen).toHaveLength(1);
    expect(run.checkpointer.messages.at(-1)?.content).toBe('all done');
  });

  it("gives each tool the run's ids as its context, under the installed ai's option name", async () => {
    const { model } = scriptedModel([{ toolCalls: [workCall] }, { text: 'done' }]);
    const { tools, seen } = recordingTool();
    await startMemoryRun(aiSdkAgent({ model, tools, stopWhen: stepCountIs(5) }), {
      history: [user],
    }).outcome;

    const key = ai.major === 6 ? 'experimental_context' : 'context';
    expect(seen[0][key]).toEqual({ threadId: 't', runId: 'r' });
  });

  it('gives a call of the interrupted step, run before the first model call, the same context', async () => {
    const { model } = scriptedModel([{ text: 'done' }]);
    const { tools, seen } = recordingTool();
    const history = [
      user,
      { id: 'a1', role: 'assistant' as const, content: '', toolCalls: [workCall] },
    ];
    const run = startMemoryRun(aiSdkAgent({ model, tools, stopWhen: stepCountIs(5) }), {
      history,
      pending: [workCall],
      approved: ['c1'],
    });

    expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(seen[0][ai.major === 6 ? 'experimental_context' : 'context']).toEqual({
      threadId: 't',
      runId: 'r',
    });
  });

  it("makes a tool the SDK would ask approval for (needsApproval, or a toolApproval entry) require the module's approval", () => {
    const { model } = scriptedModel([{ text: 'hi' }]);
    const { tools } = recordingTool();
    const gated = {
      ...tools,
      gated: { ...tools.work, needsApproval: true },
      overridden: { ...tools.work, needsApproval: true },
    };
    const agent = new AiSdkAgent({
      model,
      tools: gated,
      toolApproval: { work: 'user-approval', overridden: 'approved' },
    } as never);

    expect(agent.toolTraits('work')).toEqual({ requiresApproval: true });
    expect(agent.toolTraits('gated')).toEqual({ requiresApproval: true });
    expect(agent.toolTraits('overridden')).toEqual({});
  });

  it('refuses one toolApproval function over all tools, saying to give approval per tool name', () => {
    const { model } = scriptedModel([{ text: 'hi' }]);
    expect(() => new AiSdkAgent({ model, toolApproval: () => 'user-approval' } as never)).toThrow(
      /per tool name/,
    );
  });
});
