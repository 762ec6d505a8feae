import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { fromLangChain } from 'nest-agent-graceful-shutdown/langgraph';
import { DemoModel, type DemoModelOptions } from '../../demo/demo-model';

/**
 * The demo model as a LangChain chat model: the same deterministic, offline `DemoModel`, reading
 * the LangChain messages as the module stores them. Each call takes the demo's reasoning time and honours the
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

  async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
  ): Promise<ChatResult> {
    const signal = options.signal ?? new AbortController().signal;
    const answer = await this.demo.generate(
      {
        messages: messages.flatMap(
          (message, index) => fromLangChain(message, message.id ?? `m${index}`) ?? [],
        ),
        tools: [],
      },
      { threadId: '', runId: '', signal },
    );
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
