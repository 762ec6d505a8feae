import { randomUUID } from 'node:crypto';
import {
  Usage,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
} from '@openai/agents';

type DoneOutput = Extract<StreamEvent, { type: 'response_done' }>['response']['output'];

/** One scripted answer: text, function calls, or both. */
export interface ScriptedAnswer {
  text?: string;
  toolCalls?: ReadonlyArray<{ id: string; name: string; arguments: string }>;
}

/**
 * A `Model` that plays `answers` in order, one per call (the last one repeats), streaming its
 * text word by word; `hold(n)` keeps call n (0-based) waiting, honouring the request's signal.
 */
export class ScriptedModel implements Model {
  calls = 0;
  readonly requests: ModelRequest[] = [];

  constructor(
    private readonly answers: readonly ScriptedAnswer[],
    private readonly hold?: (call: number) => Promise<void> | undefined,
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const output = await this.next(request);
    return {
      usage: new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }),
      output,
      responseId: randomUUID(),
    };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const output = await this.next(request);
    yield { type: 'response_started' };
    const text = this.answers[Math.min(this.calls - 1, this.answers.length - 1)].text ?? '';
    for (const word of text.split(/(?<= )/))
      if (word) yield { type: 'output_text_delta', delta: word };
    yield {
      type: 'response_done',
      response: {
        id: randomUUID(),
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        output,
      },
    };
  }

  private async next(request: ModelRequest): Promise<DoneOutput> {
    const n = this.calls++;
    this.requests.push(request);
    const wait = this.hold?.(n);
    if (wait) await untilAborted(wait, request.signal);
    const answer = this.answers[Math.min(n, this.answers.length - 1)];
    const output: DoneOutput = [];
    if (answer.text)
      output.push({
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: answer.text }],
      });
    for (const call of answer.toolCalls ?? []) {
      // The item id only the SDK's own state keeps: it tells a run continued from a saved RunState.
      output.push({
        type: 'function_call',
        id: `item_${call.id}`,
        callId: call.id,
        name: call.name,
        arguments: call.arguments,
        status: 'completed',
      });
    }
    return output;
  }
}

function untilAborted(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return wait;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    signal.addEventListener(
      'abort',
      () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')),
      { once: true },
    );
    wait.then(resolve, reject);
  });
}
