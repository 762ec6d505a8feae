import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { langGraphAgent } from '../../langgraph/langgraph-agent.js';
import {
  langChainTool,
  reactGraph,
  toolCalls,
} from '../../langgraph/scripted-chat-model.fixtures.js';
import { scriptFromConversation } from './conversation-script.js';
import {
  describeOrderAgentDurability,
  ORDER_TOOLS,
  ORDER_TURNS,
  WITHOUT_CHARGE,
  type OrderAgentChanges,
} from './order-agent.fixtures.js';

/** A LangChain chat model that streams the turn its messages are at (see `scriptFromConversation`). */
class ConversationChatModel extends BaseChatModel {
  private readonly turnFor: ReturnType<typeof scriptFromConversation>;

  constructor(turns = ORDER_TURNS) {
    super({});
    this.turnFor = scriptFromConversation(turns);
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const turn = this.turnFor(messages);
    return {
      generations: [
        {
          text: turn.text ?? '',
          message: new AIMessage({ content: turn.text ?? '', tool_calls: toolCalls(turn) }),
        },
      ],
    };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    _options: unknown,
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const turn = this.turnFor(messages);
    const chunks = [new AIMessageChunk({ content: turn.text ?? '' })];
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
}

function orderAgent(changes: OrderAgentChanges = {}) {
  const tools = ORDER_TOOLS.filter((t) => t.name !== changes.drop);
  const graph = reactGraph(new ConversationChatModel(changes.turns), tools.map(langChainTool));
  const toolTraits = Object.fromEntries(tools.map((t) => [t.name, { idempotent: t.idempotent }]));
  return langGraphAgent(graph, {
    toolTraits,
    config: { recursionLimit: 50 },
    version: changes.version ?? '1.0.0',
  });
}

describe('verifyDurability on the LangGraph adapter', () => {
  describeOrderAgentDurability(orderAgent, {
    changes: WITHOUT_CHARGE,
    reason: 'tool_removed',
    points: 'at least',
  });
});
