import { stepCountIs, tool, type ToolSet } from 'ai';
import { aiSdkAgent } from '../../ai-sdk/ai-sdk-agent.js';
import type { StreamPart, WrappableModel } from '../../ai-sdk/ai-sdk-types.js';
import { installedAi } from '../../ai-sdk/installed-ai.js';
import { scriptFromConversation } from './conversation-script.js';
import {
  describeOrderAgentDurability,
  ORDER_SCHEMAS,
  ORDER_TOOLS,
  ORDER_TURNS,
  WITH_CURRENCY,
  zodOf,
  type OrderAgentChanges,
} from './order-agent.fixtures.js';

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

/** An AI SDK model that streams the turn its prompt is at (see `scriptFromConversation`). */
function conversationModel(turns = ORDER_TURNS): WrappableModel {
  const turnFor = scriptFromConversation(turns);
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
      if (turn.text)
        parts.push(
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: turn.text },
          { type: 'text-end', id: 't' },
        );
      for (const call of turn.toolCalls ?? [])
        parts.push({
          type: 'tool-call',
          toolCallId: call.id,
          toolName: call.name,
          input: call.arguments,
        });
      const unified = turn.toolCalls?.length ? 'tool-calls' : 'stop';
      parts.push({ type: 'finish', usage, finishReason: { unified, raw: unified } });
      return {
        stream: new ReadableStream<StreamPart>({
          start: (controller) => (
            parts.forEach((part) => controller.enqueue(part)),
            controller.close()
          ),
        }),
      };
    },
  };
  return model as unknown as WrappableModel;
}

function orderAgent(changes: OrderAgentChanges = {}) {
  const schemas = { ...ORDER_SCHEMAS, ...changes.schemas };
  const tools: ToolSet = Object.fromEntries(
    ORDER_TOOLS.filter((t) => t.name !== changes.drop).map((t) => [
      t.name,
      tool({
        description: t.name,
        inputSchema: zodOf(schemas[t.name]),
        execute: (input, options) =>
          t.execute(input, options.abortSignal ?? new AbortController().signal),
      }),
    ]),
  );
  const toolTraits = Object.fromEntries(
    ORDER_TOOLS.map((t) => [t.name, { idempotent: t.idempotent }]),
  );
  const model = conversationModel(changes.turns);
  return aiSdkAgent(
    { model, tools, stopWhen: stepCountIs(10) },
    { toolTraits, version: changes.version ?? '1.0.0' },
  );
}

describe('verifyDurability on the AI SDK adapter', () => {
  describeOrderAgentDurability(orderAgent, { changes: WITH_CURRENCY, reason: 'invalid_arguments' });
});
