import { randomUUID } from 'node:crypto';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import {
  AIMessage,
  AIMessageChunk,
  HumanMessage,
  type BaseMessage,
} from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { langGraphAgent } from '../../packages/nest-agent-graceful-shutdown/src/langgraph/langgraph-agent';
// The ReAct graph of the adapter's specs, compiled without a checkpointer.
import { reactGraph } from '../../packages/nest-agent-graceful-shutdown/src/langgraph/scripted-chat-model.fixtures';
import type { AdapterSubject } from './adapter-overhead.bench';

/** A chat model that answers at once: a call of `noop` per round (counted from the tool messages it is sent), then a text answer. */
export class InstantChatModel extends BaseChatModel {
  constructor(private readonly rounds: number) {
    super({});
  }

  _llmType(): string {
    return 'instant';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const call = this.nextCall(messages);
    const message = call
      ? new AIMessage({ content: '', tool_calls: [{ ...call, args: {}, type: 'tool_call' }] })
      : new AIMessage({ content: 'done' });
    return { generations: [{ text: call ? '' : 'done', message }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
  ): AsyncGenerator<ChatGenerationChunk> {
    const call = this.nextCall(messages);
    const message = call
      ? new AIMessageChunk({
          content: '',
          tool_call_chunks: [{ ...call, args: '{}', index: 0, type: 'tool_call_chunk' }],
        })
      : new AIMessageChunk({ content: 'done' });
    yield new ChatGenerationChunk({ message, text: call ? '' : 'done' });
  }

  /** The tool call to answer with, or none once every round has its tool result. */
  private nextCall(messages: readonly BaseMessage[]): { id: string; name: string } | undefined {
    const done = messages.filter((message) => message.getType() === 'tool').length;
    return done < this.rounds ? { id: `call_${randomUUID()}`, name: 'noop' } : undefined;
  }
}

/** The no-op tool of the LangGraph subjects; `onToolCall` is told of each call. */
export function noopTool(onToolCall?: () => void) {
  return tool(async () => (onToolCall?.(), 'ok'), {
    name: 'noop',
    description: 'does nothing',
    schema: { type: 'object', properties: {} },
  });
}

/**
 * The same ReAct graph (instant chat model, no-op tool) invoked by LangGraph alone, and
 * through `langGraphAgent`. Each variant has its own compiled graph: the adapter wraps the
 * tools of a graph's `ToolNode` in place. `onToolCall` is told of each call of the tool.
 */
export function langGraphSubject(iterations: number, onToolCall?: () => void): AdapterSubject {
  const model = new InstantChatModel(iterations);
  const noop = noopTool(onToolCall);
  const plainGraph = reactGraph(model, [noop]);
  return {
    framework: 'LangGraph',
    async plain() {
      const { messages } = await plainGraph.invoke(
        { messages: [new HumanMessage('go')] },
        { recursionLimit: 100 },
      );
      if (messages.length !== 2 * iterations + 2)
        throw new Error(`benchmark graph ended with ${messages.length} messages`);
    },
    durable: langGraphAgent(reactGraph(model, [noop]), { config: { recursionLimit: 100 } }),
  };
}
