import { waitForHold, type ScriptedTurn } from '../testing/run-handle-harness';
import type { LanguageModelV3, StreamPart } from './ai-sdk-types';

const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 2, text: 2, reasoning: undefined } };

/** The stream parts of one scripted turn: text deltas, then tool calls, then the finish. */
function partsOf(turn: ScriptedTurn): StreamPart[] {
  const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (turn.text) parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: turn.text }, { type: 'text-end', id: 't' });
  for (const call of turn.toolCalls ?? []) parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments });
  const unified = turn.toolCalls?.length ? 'tool-calls' : 'stop';
  parts.push({ type: 'finish', usage, finishReason: { unified, raw: unified } });
  return parts;
}

/** An AI SDK model that plays `turns` in order (the last one repeats), streamed; counts its calls. */
export function scriptedModel(turns: readonly ScriptedTurn[], hold?: (call: number) => Promise<void> | undefined) {
  let calls = 0;
  const model: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('the scripted model only streams');
    },
    async doStream(options) {
      const n = calls++;
      await waitForHold(hold?.(n), options.abortSignal);
      const parts = partsOf(turns[Math.min(n, turns.length - 1)]);
      return { stream: new ReadableStream<StreamPart>({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }) };
    },
  };
  return { model, calls: () => calls };
}
