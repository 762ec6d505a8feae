import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { AgentMessage } from 'nest-agent-graceful-shutdown';
import { DemoModel, type DemoModelOptions } from '../../demo/demo-model';

/**
 * The demo model as a LangChain chat model: the same deterministic, offline `DemoModel`, reading
 * the LangChain messages as a history. Each call takes the demo's reasoning time and honours the
 * call's abort signal.
 */
export class DemoChatModel extends BaseChatModel {
  private readonly demo: DemoModel;

  constructor(options: DemoModelOptions) {
    super({});
    this.demo = new DemoModel(options);
  }

  _llmType(): string {
    return 'demo';
  }

  /** The demo model knows its one tool already. */
  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    const signal = options.signal ?? new AbortController().signal;
    const answer = await this.demo.generate({ messages: messages.flatMap(historyOf), tools: [] }, { threadId: '', runId: '', signal });
    const message = new AIMessage({
      content: answer.content,
      tool_calls: answer.toolCalls.map((call) => ({
        id: call.id,
        name: call.name,
        args: JSON.parse(call.arguments) as Record<string, unknown>,
        type: 'tool_call',
      })),
    });
    return { generations: [{ text: answer.content, message }] };
  }
}

/** A LangChain message as the history the demo model reads: texts, tool calls and tool results. */
function historyOf(message: BaseMessage, index: number): AgentMessage[] {
  const id = message.id ?? `m${index}`;
  const content = typeof message.content === 'string' ? message.content : '';
  switch (message.getType()) {
    case 'human':
      return [{ id, role: 'user', content }];
    case 'system':
      return [{ id, role: 'system', content }];
    case 'tool':
      return [{ id, role: 'tool', content, toolCallId: (message as unknown as { tool_call_id: string }).tool_call_id }];
    case 'ai': {
      const calls = (message as AIMessage).tool_calls ?? [];
      return [
        { id, role: 'assistant', content, toolCalls: calls.map((call) => ({ id: call.id ?? '', name: call.name, arguments: JSON.stringify(call.args) })) },
      ];
    }
    default:
      return [];
  }
}
