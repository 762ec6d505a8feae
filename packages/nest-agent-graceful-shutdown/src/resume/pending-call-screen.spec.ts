import type { ToolCall } from '../agent/agent-message.js';
import { screenPendingCalls, type CallScreenAgent } from './pending-call-screen.js';

const charge: ToolCall = { id: 'c1', name: 'charge_card', arguments: '{"amount":10}' };
const receipt: ToolCall = { id: 'c2', name: 'send_receipt', arguments: '{}' };
const releases = { from: '1.0.0', to: '2.0.0' };

function agentWith(tools: string[], refuse: Record<string, string> = {}): CallScreenAgent {
  return {
    hasTool: (name) => tools.includes(name),
    checkToolInput: (call) =>
      Promise.resolve(refuse[call.name] ? { ok: false, error: refuse[call.name] } : { ok: true }),
  };
}

describe('screenPendingCalls', () => {
  it('lets every call through whose tool exists and accepts its arguments', async () => {
    expect(
      await screenPendingCalls(
        [charge, receipt],
        agentWith(['charge_card', 'send_receipt']),
        releases,
      ),
    ).toEqual(new Map());
  });

  it('refuses a call whose tool is gone, saying which release no longer has it', async () => {
    const notRun = await screenPendingCalls(
      [charge, receipt],
      agentWith(['send_receipt']),
      releases,
    );

    expect([...notRun.values()]).toEqual([
      {
        call: charge,
        reason: 'tool_removed',
        result: 'not run: the tool "charge_card" no longer exists in release 2.0.0 of the agent.',
      },
    ]);
  });

  it("refuses a call whose arguments the tool's check refuses, with the check's message", async () => {
    const notRun = await screenPendingCalls(
      [charge],
      agentWith(['charge_card'], { charge_card: "must have required property 'currency'" }),
      releases,
    );

    expect(notRun.get('c1')).toMatchObject({
      reason: 'invalid_arguments',
      result: expect.stringContaining("must have required property 'currency'"),
    });
  });

  it('refuses every call when the policy skips them', async () => {
    const notRun = await screenPendingCalls(
      [charge, receipt],
      agentWith(['charge_card', 'send_receipt']),
      { ...releases, skipAll: true },
    );

    expect([...notRun.values()].map((entry) => entry.reason)).toEqual(['policy', 'policy']);
  });

  it('accepts any arguments of an agent that has no input check', async () => {
    expect(await screenPendingCalls([charge], { hasTool: () => true }, releases)).toEqual(
      new Map(),
    );
  });
});
