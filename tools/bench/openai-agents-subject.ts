import { randomUUID } from 'node:crypto';
import {
  Agent,
  Runner,
  Usage,
  tool,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
} from '@openai/agents';
import { openAiAgent } from '../../packages/nest-agent-graceful-shutdown/src/openai-agents/open-ai-agent';
import type { AdapterSubject } from './adapter-overhead.bench';

/** A model that answers at once: a call of `noop` per round, then a text answer. */
class InstantModel implements Model {
  constructor(private readonly rounds: number) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    return { usage: new Usage(), output: this.decide(request.input) };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const output = this.decide(request.input);
    yield {
      type: 'response_done',
      response: {
        id: randomUUID(),
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        output: output as never,
      },
    };
  }

  private decide(input: string | AgentInputItem[]): ModelResponse['output'] {
    const done =
      typeof input === 'string'
        ? 0
        : input.filter((item) => item.type === 'function_call_result').length;
    if (done < this.rounds)
      return [
        {
          type: 'function_call',
          callId: `call_${randomUUID()}`,
          name: 'noop',
          arguments: '{}',
          status: 'completed',
        },
      ];
    return [
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'done' }],
      },
    ];
  }
}

/**
 * The same SDK agent (instant model, no-op tool) with the SDK's runner alone, and through
 * `openAiAgent`; `onToolCall` is told of each call of the tool.
 */
export function openAiAgentsSubject(iterations: number, onToolCall?: () => void): AdapterSubject {
  const noop = tool({
    name: 'noop',
    description: 'does nothing',
    parameters: { type: 'object', properties: {}, additionalProperties: true, required: [] },
    strict: false,
    execute: () => (onToolCall?.(), 'ok'),
  });
  const agent = new Agent({
    name: 'bench',
    instructions: 'bench',
    model: new InstantModel(iterations),
    tools: [noop],
  });
  const runner = new Runner({ tracingDisabled: true });
  return {
    framework: 'OpenAI Agents SDK',
    async plain() {
      const result = await runner.run(agent, 'go', { stream: true, maxTurns: iterations + 2 });
      for await (const event of result) void event;
      await result.completed;
    },
    durable: openAiAgent(agent, { runner, maxTurns: iterations + 2 }),
  };
}
