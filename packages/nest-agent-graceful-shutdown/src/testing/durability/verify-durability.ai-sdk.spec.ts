import { jsonSchema, stepCountIs, tool, type ToolSet } from 'ai';
import { aiSdkAgent } from '../../ai-sdk/ai-sdk-agent.js';
import type { StreamPart, WrappableModel } from '../../ai-sdk/ai-sdk-types.js';
import { installedAi } from '../../ai-sdk/installed-ai.js';
import { scriptFromConversation } from './conversation-script.js';
import { ORDER_ANSWER, ORDER_POINTS, ORDER_SCHEMAS, ORDER_TOOLS, ORDER_TURNS } from './order-agent.fixtures.js';
import { verifyDurability } from './verify-durability.js';

const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 2, text: 2, reasoning: undefined } };

/** An AI SDK model that streams the turn its prompt is at (see `scriptFromConversation`). */
function conversationModel(): WrappableModel {
  const turnFor = scriptFromConversation(ORDER_TURNS);
  const model = {
    specificationVersion: installedAi().modelSpecs[0],
    provider: 'scripted',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('the scripted model only streams');
    },
    async doStream({ prompt }: { prompt: unknown[] }) {
      const turn = turnFor(prompt);
      const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (turn.text) parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: turn.text }, { type: 'text-end', id: 't' });
      for (const call of turn.toolCalls ?? []) parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments });
      const unified = turn.toolCalls?.length ? 'tool-calls' : 'stop';
      parts.push({ type: 'finish', usage, finishReason: { unified, raw: unified } });
      return { stream: new ReadableStream<StreamPart>({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }) };
    },
  };
  return model as unknown as WrappableModel;
}

function orderAgent() {
  const tools: ToolSet = Object.fromEntries(
    ORDER_TOOLS.map((t) => [
      t.name,
      tool({
        description: t.name,
        inputSchema: jsonSchema<Record<string, unknown>>(ORDER_SCHEMAS[t.name]),
        execute: (input, options) => t.execute(input, options.abortSignal ?? new AbortController().signal),
      }),
    ]),
  );
  const toolTraits = Object.fromEntries(ORDER_TOOLS.map((t) => [t.name, { idempotent: t.idempotent }]));
  return aiSdkAgent({ model: conversationModel(), tools, stopWhen: stepCountIs(10) }, { toolTraits });
}

describe('verifyDurability on the AI SDK adapter', () => {
  it('finds no failure for an order agent interrupted at every point', async () => {
    const report = await verifyDurability(orderAgent, { input: 'Order 42: charge and send the receipt' });

    expect(report.failures).toEqual([]);
    expect(report.finalAnswer).toBe(ORDER_ANSWER);
    expect(report.points.map((point) => point.point)).toEqual(ORDER_POINTS);
  });
});
