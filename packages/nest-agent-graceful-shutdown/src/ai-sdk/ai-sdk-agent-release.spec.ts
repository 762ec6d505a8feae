// Runs on AI SDK 7 here and on AI SDK 6 in the oldest-peers run: the checks are the installed SDK's.
import { stepCountIs, tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { ToolCall } from '../agent/agent-message.js';
import { StopReason } from '../agent/stop-reason.js';
import { agentFingerprint } from '../resume/agent-fingerprint.js';
import { screenPendingCalls } from '../resume/pending-call-screen.js';
import { startMemoryRun } from '../testing/memory-run.js';
import type { ScriptedTurn } from '../testing/run-handle-harness.js';
import { aiSdkAgent, AiSdkAgent } from './ai-sdk-agent.js';
import { scriptedModel } from './scripted-model.fixtures.js';

const user = { id: 'u1', role: 'user' as const, content: 'pay' };
const chargeWithoutCurrency: ToolCall = {
  id: 'c1',
  name: 'charge_card',
  arguments: '{"amount":5}',
};
const validCharge: ToolCall = {
  id: 'c2',
  name: 'charge_card',
  arguments: '{"amount":5,"currency":"EUR"}',
};

/** The tools of one release: `charge_card` (with a required `currency` from release 2 on) and `refund`. */
function release(version: 1 | 2, charges: unknown[] = [], withRefund = true): ToolSet {
  const amount = { amount: z.number() };
  const inputSchema =
    version === 1 ? z.object(amount) : z.object({ ...amount, currency: z.string() });
  const charge_card = tool({
    description: 'charges the card',
    inputSchema,
    execute: (input) => (charges.push(input), 'charged'),
  });
  const refund = tool({
    description: 'refunds',
    inputSchema: z.object({ chargeId: z.string() }),
    execute: () => 'refunded',
  });
  return withRefund ? { charge_card, refund } : { charge_card };
}

function agentOf(tools: ToolSet, turns: ScriptedTurn[] = [{ text: 'done' }]) {
  const scripted = scriptedModel(turns);
  return {
    agent: new AiSdkAgent({ model: scripted.model, tools, stopWhen: stepCountIs(5) }),
    ...scripted,
  };
}

describe('aiSdkAgent releases', () => {
  it('describes its tools with the JSON Schema the SDK gives the model', () => {
    const shape = agentOf(release(2)).agent.describe();

    expect(shape.tools.map((t) => t.name)).toEqual(['charge_card', 'refund']);
    expect(shape.tools[0].inputSchema).toMatchObject({
      type: 'object',
      required: ['amount', 'currency'],
    });
  });

  it('gives the same fingerprint for the same tools built again', () => {
    expect(agentFingerprint(agentOf(release(2)).agent.describe())).toBe(
      agentFingerprint(agentOf(release(2)).agent.describe()),
    );
  });

  it('gives another fingerprint when a tool is removed or its schema changes', () => {
    const current = agentFingerprint(agentOf(release(2)).agent.describe());

    expect(agentFingerprint(agentOf(release(2, [], false)).agent.describe())).not.toBe(current);
    expect(agentFingerprint(agentOf(release(1)).agent.describe())).not.toBe(current);
  });

  it("refuses a call missing a newly required field with the SDK's message", async () => {
    const check = await agentOf(release(2)).agent.checkToolInput(chargeWithoutCurrency);

    expect(check).toEqual({
      ok: false,
      error: expect.stringMatching(/^Invalid input for tool charge_card: .*currency/s),
    });
  });

  it('accepts a call whose arguments fit the schema', async () => {
    expect(await agentOf(release(2)).agent.checkToolInput(validCharge)).toEqual({ ok: true });
  });

  it('hands its version and version-change policy to the module', () => {
    const { model } = scriptedModel([{ text: 'hi' }]);
    const agent = aiSdkAgent({ model }, { version: '2.0.0', onVersionChange: 'refuse' });

    expect([agent.version, agent.onVersionChange]).toEqual(['2.0.0', 'refuse']);
  });

  it('never runs a call the schema refuses in a model step, and the model sees the error', async () => {
    const charges: unknown[] = [];
    const { agent, prompts } = agentOf(release(2, charges), [
      { toolCalls: [chargeWithoutCurrency] },
      { text: 'sorry' },
    ]);
    const run = startMemoryRun(agent, { history: [user] });

    expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(charges).toEqual([]);
    expect(JSON.stringify(prompts[1])).toMatch(/Invalid input for tool charge_card/);
    const result = run.checkpointer.messages.find((m) => m.toolCallId === 'c1');
    expect(result?.content).toMatch(/^error: Invalid input for tool charge_card/);
  });

  it('does not run a resumed call whose arguments the current tool refuses', async () => {
    const charges: unknown[] = [];
    const { agent } = agentOf(release(2, charges));
    const screen = {
      hasTool: (name: string) => agent.toolTraits(name) !== undefined,
      checkToolInput: (call: ToolCall) => agent.checkToolInput(call),
    };
    const notRun = await screenPendingCalls([chargeWithoutCurrency, validCharge], screen, {
      from: '1.0.0',
      to: '2.0.0',
    });

    expect([...notRun.values()].map((n) => [n.call.id, n.reason])).toEqual([
      ['c1', 'invalid_arguments'],
    ]);
  });

  it('answers a pending call the schema refuses with the SDK error instead of running it', async () => {
    const charges: unknown[] = [];
    const history = [
      user,
      {
        id: 'a1',
        role: 'assistant' as const,
        content: '',
        toolCalls: [chargeWithoutCurrency, validCharge],
      },
    ];
    const run = startMemoryRun(agentOf(release(2, charges)).agent, {
      history,
      pending: [chargeWithoutCurrency, validCharge],
      resumed: true,
    });

    expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(charges).toEqual([{ amount: 5, currency: 'EUR' }]);
    expect(run.checkpointer.messages.find((m) => m.toolCallId === 'c1')?.content).toMatch(
      /^error: Invalid input for tool charge_card/,
    );
  });
});
