import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ToolCall } from '../agent/agent-message.js';
import type { ModelResponse, ModelStreamSink, ModelUsage } from '../agent/agent-model.interface.js';
import { ModelCallError } from '../errors/model-call.error.js';

/** A tool call being streamed: the API sends id and name once, then the arguments in pieces. */
interface PendingToolCall {
  index: number;
  id?: string;
  name?: string;
  /** All argument text received so far. */
  arguments: string;
  /** Argument text received before id and name were known, not yet given to the sink. */
  unsent: string;
  started: boolean;
  ended: boolean;
}

type ToolCallFragment = ChatCompletionChunk.Choice.Delta.ToolCall;

/**
 * Turns the chunks of a streamed chat completion into sink events, as they arrive, and into
 * the final `ModelResponse`. Chunks come from the network, so their shape is checked rather than
 * trusted: a chunk the assembler cannot read is a `ModelCallError` `MODEL_BAD_RESPONSE`.
 * Errors thrown by the sink itself propagate unchanged.
 */
export class OpenAiStreamAssembler {
  private content = '';
  private readonly calls = new Map<number, PendingToolCall>();
  private usage?: ModelUsage;

  constructor(private readonly sink?: ModelStreamSink) {}

  /** Takes the next chunk, in stream order. */
  push(chunk: ChatCompletionChunk): void {
    if (typeof chunk !== 'object' || chunk === null)
      throw badResponse(`a stream chunk is not an object: ${JSON.stringify(chunk)}`);
    if (chunk.usage) this.usage = toUsage(chunk.usage);
    // The usage chunk that `include_usage` adds has no choices; some servers omit the field there.
    const choices = chunk.choices ?? [];
    if (!Array.isArray(choices))
      throw badResponse('a stream chunk has a "choices" field that is not a list');
    for (const choice of choices) {
      // Only one completion is asked for (n = 1); anything else is not ours to assemble.
      if ((choice?.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string' && delta.content !== '') {
        this.content += delta.content;
        this.sink?.text(delta.content);
      }
      if (delta.tool_calls != null) {
        if (!Array.isArray(delta.tool_calls))
          throw badResponse('a stream chunk has "tool_calls" that are not a list');
        delta.tool_calls.forEach((fragment, position) => this.pushToolCall(fragment, position));
      }
      // The calls are complete once the model says why it stopped; the usage chunk may still follow.
      if (choice.finish_reason) this.endToolCalls();
    }
  }

  /** Ends the stream (also when it stopped without a finish reason) and returns the answer. */
  finish(): ModelResponse {
    this.endToolCalls();
    const calls = [...this.calls.values()].sort((a, b) => a.index - b.index);
    const toolCalls: ToolCall[] = calls.map((call) => {
      if (!call.started)
        throw badResponse(
          `tool call #${call.index} ended without ${call.id === undefined ? 'an id' : 'a name'}`,
        );
      return { id: call.id!, name: call.name!, arguments: call.arguments };
    });
    return { content: this.content, toolCalls, ...(this.usage && { usage: this.usage }) };
  }

  private pushToolCall(fragment: ToolCallFragment, position: number): void {
    if (typeof fragment !== 'object' || fragment === null)
      throw badResponse('a streamed tool call is not an object');
    // Fragments are matched by `index`; a server that leaves it out sends whole calls, in order.
    const index = fragment.index ?? position;
    if (typeof index !== 'number')
      throw badResponse('a streamed tool call has an index that is not a number');
    let call = this.calls.get(index);
    if (!call) {
      call = { index, arguments: '', unsent: '', started: false, ended: false };
      this.calls.set(index, call);
    }
    const { id } = fragment;
    const name = fragment.function?.name;
    const args = fragment.function?.arguments;
    if (id != null && typeof id !== 'string')
      throw badResponse('a streamed tool call has an id that is not a string');
    if (name != null && typeof name !== 'string')
      throw badResponse('a streamed tool call has a name that is not a string');
    if (args != null && typeof args !== 'string')
      throw badResponse('streamed tool call arguments are not a string');
    // Id and name arrive whole on the first fragment; later fragments repeat them at most.
    if (id && call.id === undefined) call.id = id;
    if (name && call.name === undefined) call.name = name;
    if (args) {
      call.arguments += args;
      call.unsent += args;
    }
    if (!call.started && call.id !== undefined && call.name !== undefined) {
      call.started = true;
      this.sink?.toolCallStart({ id: call.id, name: call.name });
    }
    if (call.started && call.unsent !== '' && !call.ended) {
      const delta = call.unsent;
      call.unsent = '';
      this.sink?.toolCallArgs(call.id!, delta);
    }
  }

  private endToolCalls(): void {
    for (const call of this.calls.values()) {
      if (!call.started || call.ended) continue;
      call.ended = true;
      this.sink?.toolCallEnd(call.id!);
    }
  }
}

function toUsage(usage: NonNullable<ChatCompletionChunk['usage']>): ModelUsage {
  return {
    promptTokens: usage.prompt_tokens ?? 0,
    completionTokens: usage.completion_tokens ?? 0,
    totalTokens: usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0),
  };
}

function badResponse(detail: string): ModelCallError {
  return new ModelCallError(
    'MODEL_BAD_RESPONSE',
    `the model server sent an unreadable stream: ${detail}`,
  );
}
