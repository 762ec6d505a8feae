import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents';
import { abortable } from '../agent/abortable.js';
import type { AnswerStream, RunHandle } from '../handle/run-handle.interface.js';
import { answerOf } from './run-items.js';

type UsageCounts = Pick<ModelResponse['usage'], 'inputTokens' | 'outputTokens' | 'totalTokens'>;

/** Where the run's own wrappers last stopped it. */
export interface StopMarks {
  /** A stop decided at the pre-reasoning safe point: nothing of the turn was asked or stored. */
  beforeReasoning: boolean;
}

/**
 * The user's model as one run sees it: each call first passes the pre-reasoning safe point;
 * its text deltas stream as AG-UI events; the whole answer (text and function calls) is
 * durable before the runner sees the end of the response, so before any of its tools runs.
 */
export class DurableModel implements Model {
  constructor(
    private readonly inner: Model,
    private readonly handle: RunHandle,
    private readonly marks: StopMarks,
    private readonly expectedDurationMs?: number,
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const answer = await this.begin();
    try {
      const response = await abortable(
        this.inner.getResponse({ ...request, signal: request.signal ?? this.handle.signal }),
        this.handle.signal,
      );
      await this.settle(answer, response);
      return response;
    } catch (error) {
      await answer.cutOff();
      throw error;
    }
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const answer = await this.begin();
    const events = this.inner
      .getStreamedResponse({ ...request, signal: request.signal ?? this.handle.signal })
      [Symbol.asyncIterator]();
    try {
      for (;;) {
        // A model that ignores its signal cannot hold the run past a stop.
        const next = await abortable(events.next(), this.handle.signal);
        if (next.done) return;
        const event = next.value;
        if (event.type === 'output_text_delta') answer.text(event.delta);
        if (event.type === 'response_done') await this.settle(answer, event.response);
        yield event;
      }
    } finally {
      void events.return?.()?.catch(() => undefined);
      // A stream that ended without its response (error, abort, consumer gone) was cut off.
      await answer.cutOff();
    }
  }

  private async begin(): Promise<AnswerStream> {
    const point = await this.handle.beforeReasoning({
      expectedDurationMs: this.expectedDurationMs,
    });
    if (point.stop) {
      this.marks.beforeReasoning = true;
      throw this.handle.stopped(point);
    }
    return this.handle.startAnswer();
  }

  private async settle(
    answer: AnswerStream,
    response: { output: ModelResponse['output']; usage?: UsageCounts },
  ): Promise<void> {
    const usage = response.usage;
    if (usage)
      this.handle.reportUsage({
        promptTokens: usage.inputTokens,
        completionTokens: usage.outputTokens,
        totalTokens: usage.totalTokens,
      });
    await answer.complete(answerOf(response.output));
  }
}
