import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import type { AnswerStream, RunHandle } from '../handle/run-handle.interface.js';
import { textOf, toolCallsOf } from './lc-messages.js';

/** One model answer streaming, with the ids of its tool calls by their chunk index. */
interface OpenAnswer {
  answer: AnswerStream;
  calls: Map<number, string>;
}

/** What the model callbacks need besides the handle. */
export interface ModelCallbackOptions {
  expectedReasoningMs?: number;
  /** Whether a model call made inside this graph node is a reasoning step of the agent. */
  reasons(node: string | undefined): boolean;
  /** A stop decided at a model call, or its answer not made durable: the adapter aborts the graph with `cause` (before the call, it never leaves). */
  onStop(cause: Error): void;
}

/**
 * LangChain callbacks that make each chat-model call of a graph node the run's pre-reasoning
 * safe point, stream its tokens and tool calls as AG-UI events, and make its answer durable
 * before the node returns it (the answer keeps the stored id, so the checkpoint finds it known).
 */
export class ModelCallbacks extends BaseCallbackHandler {
  name = 'nest-agent-graceful-shutdown';
  override awaitHandlers = true;
  /** Models stream when a handler prefers it: tokens reach the client as they come. */
  lc_prefer_streaming = true;
  private readonly open = new Map<string, OpenAnswer>();

  constructor(
    private readonly handle: RunHandle,
    private readonly options: ModelCallbackOptions,
  ) {
    super();
  }

  override async handleChatModelStart(
    _llm: unknown,
    _messages: unknown,
    runId: string,
    _parentRunId?: string,
    _extra?: unknown,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): Promise<void> {
    if (!this.options.reasons(metadata?.langgraph_node as string | undefined)) return;
    const point = await this.handle.beforeReasoning({
      expectedDurationMs: this.options.expectedReasoningMs,
    });
    if (point.stop) return this.options.onStop(this.handle.stopped(point));
    this.open.set(runId, { answer: this.handle.startAnswer(), calls: new Map() });
  }

  override handleLLMNewToken(
    token: string,
    _idx: unknown,
    runId: string,
    _parent?: string,
    _tags?: string[],
    fields?: { chunk?: unknown },
  ): void {
    const open = this.open.get(runId);
    if (!open) return;
    if (token) open.answer.text(token);
    const chunk = (fields?.chunk as { message?: AIMessageChunk } | undefined)?.message;
    for (const part of chunk?.tool_call_chunks ?? []) {
      const index = part.index ?? 0;
      let id = open.calls.get(index);
      if (!id && part.id && part.name) {
        id = part.id;
        open.calls.set(index, id);
        open.answer.toolCallStart({ id, name: part.name });
      }
      if (id && part.args) open.answer.toolCallArgs(id, part.args);
    }
  }

  override async handleLLMEnd(output: LLMResult, runId: string): Promise<void> {
    const open = this.open.get(runId);
    if (!open) return;
    this.open.delete(runId);
    const message = (output.generations[0]?.[0] as { message?: AIMessage } | undefined)?.message;
    if (!message) return open.answer.cutOff();
    const usage = message.usage_metadata;
    if (usage)
      this.handle.reportUsage({
        promptTokens: usage.input_tokens,
        completionTokens: usage.output_tokens,
        totalTokens: usage.total_tokens,
      });
    try {
      await open.answer.complete({
        content: textOf(message.content),
        toolCalls: toolCallsOf(message),
      });
    } catch (error) {
      this.options.onStop(error instanceof Error ? error : new Error(String(error)));
    }
    // The node returns this very message: under the stored id, the checkpoint knows it.
    message.id = open.answer.messageId;
  }

  override async handleLLMError(_error: unknown, runId: string): Promise<void> {
    const open = this.open.get(runId);
    if (!open) return;
    this.open.delete(runId);
    await open.answer.cutOff();
  }
}
