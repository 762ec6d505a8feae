// Runs on the newest and on the oldest Agents SDK of the peer range: a check the installed SDK has no parser entry for passes.
import { Agent, Runner, tool } from '@openai/agents';
import { z } from 'zod';
import type { ToolCall } from '../agent/agent-message.js';
import { StopReason } from '../agent/stop-reason.js';
import { agentFingerprint } from '../resume/agent-fingerprint.js';
import { screenPendingCalls } from '../resume/pending-call-screen.js';
import { startMemoryRun } from '../testing/memory-run.js';
import { openAiAgent } from './open-ai-agent.js';
import { ScriptedModel, type ScriptedAnswer } from './scripted-model.fixtures.js';
import { sdkInputParser } from './sdk-input-parser.js';

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

/** An agent of one release: `charge_card` (with a required `currency` from release 2 on) and `refund`. */
function release(
  version: 1 | 2,
  answers: ScriptedAnswer[] = [{ text: 'done' }],
  withRefund = true,
) {
  const charges: unknown[] = [];
  const amount = { amount: z.number() };
  const parameters =
    version === 1 ? z.object(amount) : z.object({ ...amount, currency: z.string() });
  const charge = tool({
    name: 'charge_card',
    description: 'charges the card',
    parameters,
    execute: (input) => (charges.push(input), 'charged'),
  });
  const refund = tool({
    name: 'refund',
    description: 'refunds',
    parameters: z.object({ chargeId: z.string() }),
    execute: () => 'refunded',
  });
  const model = new ScriptedModel(answers);
  const sdkAgent = new Agent({
    name: 'payer',
    instructions: 'pay',
    model,
    tools: withRefund ? [charge, refund] : [charge],
  });
  const agent = openAiAgent(sdkAgent, {
    runner: new Runner({ tracingDisabled: true }),
    version: `${version}.0.0`,
  });
  return { agent, model, charges };
}

const fingerprint = (agent: ReturnType<typeof release>['agent']) =>
  agentFingerprint(agent.describe?.());

describe('openAiAgent releases', () => {
  it("describes its function tools with their parameters' JSON Schema", () => {
    const shape = release(2).agent.describe?.();

    expect(shape?.tools.map((t) => t.name)).toEqual(['charge_card', 'refund']);
    expect(shape?.tools[0].inputSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['amount', 'currency']),
    });
  });

  it('gives the same fingerprint for the same tools built again', () => {
    expect(fingerprint(release(2).agent)).toBe(fingerprint(release(2).agent));
  });

  it('gives another fingerprint when a tool is removed or its schema changes', () => {
    const current = fingerprint(release(2).agent);

    expect(fingerprint(release(2, undefined, false).agent)).not.toBe(current);
    expect(fingerprint(release(1).agent)).not.toBe(current);
  });

  it("refuses a call missing a newly required field with the SDK parser's message, where the SDK exposes its parser", async () => {
    const check = await release(2).agent.checkToolInput?.(chargeWithoutCurrency);

    const expected = (await sdkInputParser())
      ? { ok: false, error: expect.stringMatching(/^Invalid JSON input for tool: .*currency/s) }
      : { ok: true };
    expect(check).toEqual(expected);
  });

  it('accepts a call whose arguments fit the schema', async () => {
    expect(await release(2).agent.checkToolInput?.(validCharge)).toEqual({ ok: true });
  });

  it('hands its version and version-change policy to the module', () => {
    const agent = openAiAgent(new Agent({ name: 'a', instructions: 'i' }), {
      version: '2.0.0',
      onVersionChange: 'skip-pending',
    });

    expect([agent.version, agent.onVersionChange]).toEqual(['2.0.0', 'skip-pending']);
  });

  it('never runs a call the schema refuses in a model turn, and the model sees an error result', async () => {
    const { agent, model, charges } = release(2, [
      { toolCalls: [chargeWithoutCurrency] },
      { text: 'sorry' },
    ]);
    const run = startMemoryRun(agent, { history: [user] });

    expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(charges).toEqual([]);
    const result = run.checkpointer.messages.find((m) => m.toolCallId === 'c1');
    expect(result?.content).toMatch(/error/i);
    expect(JSON.stringify(model.requests[1].input)).toContain(result?.content);
  });

  it('does not run a resumed call whose arguments the current tool refuses', async () => {
    const { agent, charges } = release(2);
    const screen = {
      hasTool: (name: string) => agent.toolTraits(name) !== undefined,
      checkToolInput: agent.checkToolInput?.bind(agent),
    };
    const notRun = await screenPendingCalls([chargeWithoutCurrency, validCharge], screen, {
      from: '1.0.0',
      to: '2.0.0',
    });

    const expected = (await sdkInputParser()) ? [['c1', 'invalid_arguments']] : [];
    expect([...notRun.values()].map((n) => [n.call.id, n.reason])).toEqual(expected);
    expect(charges).toEqual([]);
  });

  it("answers a pending call the schema refuses with the SDK's error result instead of running it", async () => {
    const { agent, charges } = release(2);
    const history = [
      user,
      {
        id: 'a1',
        role: 'assistant' as const,
        content: '',
        toolCalls: [chargeWithoutCurrency, validCharge],
      },
    ];
    const run = startMemoryRun(agent, {
      history,
      pending: [chargeWithoutCurrency, validCharge],
      resumed: true,
    });

    expect(await run.outcome).toMatchObject({ stopReason: StopReason.Completed });
    expect(charges).toEqual([{ amount: 5, currency: 'EUR' }]);
    expect(run.checkpointer.messages.find((m) => m.toolCallId === 'c1')?.content).toMatch(/error/i);
  });
});
