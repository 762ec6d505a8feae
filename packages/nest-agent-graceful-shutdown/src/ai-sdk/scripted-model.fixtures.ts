import { waitForHold, type ScriptedTurn } from '../testing/run-handle-harness.js';
import type { StreamPart, WrappableModel } from './ai-sdk-types.js';
import { installedAi } from './installed-ai.js';

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

/** The stream parts of one scripted turn: text deltas, then tool calls, then the finish (the same in v3 and v4). */
function partsOf(turn: ScriptedTurn): StreamPart[] {
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
  return parts;
}

/**
 * An AI SDK model that plays `turns` in order (the last one repeats), streamed; counts its calls
 * and keeps the prompt of each.
 * It is of specification `spec`: by default the installed `ai`'s own (v4 with ai 7, v3 with ai 6).
 */
export function scriptedModel(
  turns: readonly ScriptedTurn[],
  hold?: (call: number) => Promise<void> | undefined,
  spec = installedAi().modelSpecs[0],
) {
  let calls = 0;
  const prompts: unknown[] = [];
  const model = {
    specificationVersion: spec,
    provider: 'scripted',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('the scripted model only streams');
    },
    async doStream(options: { abortSignal?: AbortSignal; prompt?: unknown }) {
      const n = calls++;
      prompts.push(options.prompt);
      await waitForHold(hold?.(n), options.abortSignal);
      const parts = partsOf(turns[Math.min(n, turns.length - 1)]);
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
  // One object serves both specifications: the parts and call options it uses are the same in v3 and v4.
  return { model: model as unknown as WrappableModel, calls: () => calls, prompts };
}
