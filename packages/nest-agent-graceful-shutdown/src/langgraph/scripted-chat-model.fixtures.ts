import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { MessagesAnnotation, StateGraph, START } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import {
  waitForHold,
  type ContractTool,
  type ScriptedTurn,
} from '../testing/run-handle-harness.js';
import { toolFence } from './tool-fence.js';

/** A LangChain chat model that plays `turns` in order (the last one repeats), streamed; it counts its calls and keeps what it was sent. */
export class ScriptedChatModel extends BaseChatModel {
  calls = 0;
  readonly requests: BaseMessage[][] = [];

  constructor(
    private readonly turns: readonly ScriptedTurn[],
    private readonly hold?: (call: number) => Promise<void> | undefined,
  ) {
    super({});
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
  ): Promise<ChatResult> {
    const turn = await this.next(messages, options.signal);
    const message = new AIMessage({ content: turn.text ?? '', tool_calls: toolCalls(turn) });
    return { generations: [{ text: turn.text ?? '', message }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const turn = await this.next(messages, options.signal);
    const chunks: AIMessageChunk[] = [];
    if (turn.text) chunks.push(new AIMessageChunk({ content: turn.text }));
    (turn.toolCalls ?? []).forEach((call, index) =>
      chunks.push(
        new AIMessageChunk({
          content: '',
          tool_call_chunks: [
            { id: call.id, name: call.name, args: call.arguments, index, type: 'tool_call_chunk' },
          ],
        }),
      ),
    );
    chunks.push(
      new AIMessageChunk({
        content: '',
        usage_metadata: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
      }),
    );
    for (const message of chunks) {
      const chunk = new ChatGenerationChunk({
        message,
        text: typeof message.content === 'string' ? message.content : '',
      });
      yield chunk;
      await runManager?.handleLLMNewToken(chunk.text, undefined, undefined, undefined, undefined, {
        chunk,
      });
    }
  }

  private async next(
    messages: BaseMessage[],
    signal: AbortSignal | undefined,
  ): Promise<ScriptedTurn> {
    const n = this.calls++;
    this.requests.push(messages);
    await waitForHold(this.hold?.(n), signal);
    return this.turns[Math.min(n, this.turns.length - 1)];
  }
}

/** A scripted turn's tool calls as LangChain's `AIMessage.tool_calls`. */
export function toolCalls(turn: ScriptedTurn) {
  return (turn.toolCalls ?? []).map((call) => ({
    id: call.id,
    name: call.name,
    args: JSON.parse(call.arguments) as Record<string, unknown>,
    type: 'tool_call' as const,
  }));
}

/** A LangChain tool for a contract tool. */
export function langChainTool(
  contract: Pick<ContractTool, 'name' | 'execute'>,
): StructuredToolInterface {
  return tool(
    (args: Record<string, unknown>, config) =>
      contract.execute(args, config?.signal ?? new AbortController().signal, toolFence(config)),
    {
      name: contract.name,
      description: contract.name,
      schema: { type: 'object', properties: { step: { type: 'number' } } },
    },
  );
}

/** The ReAct graph most LangGraph agents are: a model node and a `ToolNode`, looping until an answer has no tool calls. */
export function reactGraph(model: BaseChatModel, tools: StructuredToolInterface[]) {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode('tools', new ToolNode(tools))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition)
    .addEdge('tools', 'agent')
    .compile();
}
