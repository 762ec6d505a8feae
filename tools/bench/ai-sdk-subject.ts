import { randomUUID } from 'node:crypto';
import { jsonSchema, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { aiSdkAgent } from '../../packages/nest-agent-graceful-shutdown/src/ai-sdk/ai-sdk-agent';
import type { AdapterSubject } from './adapter-overhead.bench';

type LanguageModelV4 = Extract<LanguageModel, { specificationVersion: 'v4' }>;
type CallOptions = Parameters<LanguageModelV4['doStream']>[0];
type StreamPart =
  Awaited<ReturnType<LanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer P>
    ? P
    : never;

const USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** A model that answers at once: a call of `noop` per round (counted from the prompt's tool results), then a text answer. */
function instantModel(rounds: number): LanguageModelV4 {
  const partsFor = (options: CallOptions): StreamPart[] => {
    const done = options.prompt.filter((message) => message.role === 'tool').length;
    const answer: StreamPart[] =
      done < rounds
        ? [{ type: 'tool-call', toolCallId: `call_${randomUUID()}`, toolName: 'noop', input: '{}' }]
        : [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'done' },
            { type: 'text-end', id: 't' },
          ];
    const unified = done < rounds ? 'tool-calls' : 'stop';
    return [
      { type: 'stream-start', warnings: [] },
      ...answer,
      { type: 'finish', usage: USAGE, finishReason: { unified, raw: unified } },
    ];
  };
  return {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: 'instant',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('the instant model only streams')),
    doStream: async (options) => {
      const parts = partsFor(options);
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
}

/**
 * The same `streamText` settings (instant model, no-op tool) with the AI SDK alone, and through
 * `aiSdkAgent`; `onToolCall` is told of each call of the tool.
 */
export function aiSdkSubject(iterations: number, onToolCall?: () => void): AdapterSubject {
  const settings = {
    model: instantModel(iterations),
    tools: {
      noop: tool({
        description: 'does nothing',
        inputSchema: jsonSchema<Record<string, never>>({ type: 'object' }),
        execute: async () => (onToolCall?.(), 'ok'),
      }),
    },
    stopWhen: stepCountIs(iterations + 2),
  };
  return {
    framework: 'AI SDK',
    async plain() {
      const result = streamText({ ...settings, messages: [{ role: 'user', content: 'go' }] });
      for await (const part of result.fullStream) if (part.type === 'error') throw part.error;
    },
    durable: aiSdkAgent(settings),
  };
}
