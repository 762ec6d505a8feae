import type { LanguageModel } from 'ai';
import type { AgentMessage } from 'nest-agent-graceful-shutdown';
import { DemoModel, type DemoModelOptions } from '../../demo/demo-model';

type LanguageModelV4 = Extract<LanguageModel, { specificationVersion: 'v4' }>;
type CallOptions = Parameters<LanguageModelV4['doStream']>[0];
type StreamPart =
  Awaited<ReturnType<LanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer P>
    ? P
    : never;

const NO_USAGE = {
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/**
 * The demo model as an AI SDK language model: the same deterministic, offline `DemoModel`,
 * reading the AI SDK prompt as a history. It streams its answer; each call takes the demo's
 * reasoning time and honours the call's abort signal.
 */
export class DemoLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'demo';
  readonly modelId = 'demo';
  readonly supportedUrls = {};
  private readonly demo: DemoModel;

  constructor(options: DemoModelOptions) {
    this.demo = new DemoModel(options);
  }

  async doGenerate(
    options: CallOptions,
  ): Promise<Awaited<ReturnType<LanguageModelV4['doGenerate']>>> {
    const answer = await this.answer(options);
    const calls = answer.toolCalls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.name,
      input: call.arguments,
    }));
    return {
      content: [
        ...(answer.content ? [{ type: 'text' as const, text: answer.content }] : []),
        ...calls,
      ],
      finishReason: { unified: calls.length ? 'tool-calls' : 'stop', raw: undefined },
      usage: NO_USAGE,
      warnings: [],
    };
  }

  async doStream(options: CallOptions): Promise<Awaited<ReturnType<LanguageModelV4['doStream']>>> {
    const answer = await this.answer(options);
    const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    if (answer.content)
      parts.push(
        { type: 'text-start', id: 'text' },
        { type: 'text-delta', id: 'text', delta: answer.content },
        { type: 'text-end', id: 'text' },
      );
    for (const call of answer.toolCalls)
      parts.push({
        type: 'tool-call',
        toolCallId: call.id,
        toolName: call.name,
        input: call.arguments,
      });
    parts.push({
      type: 'finish',
      usage: NO_USAGE,
      finishReason: { unified: answer.toolCalls.length ? 'tool-calls' : 'stop', raw: undefined },
    });
    return {
      stream: new ReadableStream<StreamPart>({
        start: (controller) => (
          parts.forEach((part) => controller.enqueue(part)),
          controller.close()
        ),
      }),
    };
  }

  private answer(options: CallOptions) {
    const signal = options.abortSignal ?? new AbortController().signal;
    return this.demo.generate(
      { messages: historyOf(options.prompt), tools: [] },
      { threadId: '', runId: '', signal },
    );
  }
}

/** The AI SDK prompt as the history the demo model reads: texts, tool calls and tool results. */
function historyOf(prompt: CallOptions['prompt']): AgentMessage[] {
  return prompt.flatMap((message, index): AgentMessage[] => {
    const id = `p${index}`;
    if (message.role === 'system') return [{ id, role: 'system', content: message.content }];
    const parts = message.content as Array<{
      type: string;
      text?: string;
      toolCallId?: string;
      toolName?: string;
      input?: unknown;
    }>;
    const text = parts.flatMap((part) => (part.type === 'text' ? [part.text ?? ''] : [])).join('');
    if (message.role === 'tool')
      return parts.map((part, i) => ({
        id: `${id}.${i}`,
        role: 'tool',
        content: '',
        toolCallId: part.toolCallId,
      }));
    const toolCalls = parts
      .filter((part) => part.type === 'tool-call')
      .map((part) => ({
        id: part.toolCallId ?? '',
        name: part.toolName ?? '',
        arguments: JSON.stringify(part.input ?? {}),
      }));
    return [{ id, role: message.role, content: text, ...(toolCalls.length ? { toolCalls } : {}) }];
  });
}
