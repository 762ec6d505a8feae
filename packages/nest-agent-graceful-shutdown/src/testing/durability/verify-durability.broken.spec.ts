import type { ToolCall } from '../../agent/agent-message.js';
import type { DurableAgent, RunHandle } from '../../handle/run-handle.interface.js';
import { OUTCOME_UNKNOWN_RESULT } from '../../resume/resume-message.js';
import { scriptFromConversation } from './conversation-script.js';
import { ORDER_TOOLS, ORDER_TURNS } from './order-agent.fixtures.js';
import { verifyDurability } from './verify-durability.js';

/**
 * A hand-written loop with a classic bug: on resume it runs again every call whose result says
 * its outcome is unknown, recording it itself instead of going through `handle.runTool`.
 */
class RetryingAgent implements DurableAgent {
  private readonly turnFor = scriptFromConversation(ORDER_TURNS);

  toolTraits(name: string) {
    const tool = ORDER_TOOLS.find((candidate) => candidate.name === name);
    return tool && { idempotent: tool.idempotent };
  }

  async run(handle: RunHandle): Promise<void> {
    await handle.prepare((call, signal) => this.execute(call, signal));
    const unknown = handle.messages.filter((message) => message.role === 'tool' && message.content === OUTCOME_UNKNOWN_RESULT);
    for (const result of unknown) {
      const call = handle.messages.flatMap((message) => message.toolCalls ?? []).find((asked) => asked.id === result.toolCallId)!;
      await handle.toolStarted(call);
      await handle.toolFinished(call, await this.execute(call, handle.signal));
    }
    for (;;) {
      const point = await handle.beforeReasoning();
      if (point.stop) throw handle.stopped(point);
      const turn = this.turnFor(handle.messages);
      const message = await handle.startAnswer().complete({ content: turn.text ?? '', toolCalls: turn.toolCalls?.map((call) => ({ ...call })) });
      if (!message.toolCalls?.length) return;
      for (const call of message.toolCalls) await handle.runTool(call, (signal) => this.execute(call, signal));
    }
  }

  private execute(call: ToolCall, signal: AbortSignal): Promise<string> {
    return ORDER_TOOLS.find((tool) => tool.name === call.name)!.execute(JSON.parse(call.arguments) as Record<string, unknown>, signal);
  }
}

describe('verifyDurability on a broken agent', () => {
  it('reports the charge run twice and answered twice when the loop retries a call of unknown outcome', async () => {
    const report = await verifyDurability(() => new RetryingAgent(), { input: 'Order 42: charge and send the receipt' });
    const midCharge = report.points.find((point) => point.point === 'mid-tool#2 charge_card');

    expect(midCharge?.ok).toBe(false);
    expect(midCharge?.failures).toEqual([
      'the history answers charge_card call "call-charge" 2 times (once expected)',
      'charge_card call "call-charge" ran 2 times (attempts 1, 2)',
      'charge_card ran 2 times on {"orderId":42,"amount":1999} (1 in the uninterrupted run)',
    ]);
    expect(report.failures).toContain('mid-tool#2 charge_card: charge_card call "call-charge" ran 2 times (attempts 1, 2)');
  });
});
