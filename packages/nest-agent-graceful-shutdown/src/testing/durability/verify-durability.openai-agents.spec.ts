import { randomUUID } from 'node:crypto';
import {
  Agent,
  Runner,
  tool,
  Usage,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
} from '@openai/agents';
import { openAiAgent } from '../../openai-agents/open-ai-agent.js';
import { sdkInputParser } from '../../openai-agents/sdk-input-parser.js';
import { scriptFromConversation } from './conversation-script.js';
import {
  describeOrderAgentDurability,
  ORDER_SCHEMAS,
  ORDER_TOOLS,
  ORDER_TURNS,
  WITH_CURRENCY,
  zodOf,
  type OrderAgentChanges,
} from './order-agent.fixtures.js';

type Output = Extract<StreamEvent, { type: 'response_done' }>['response']['output'];

/** An Agents SDK model that streams the turn its input items are at (see `scriptFromConversation`), word by word. */
class ConversationModel implements Model {
  private readonly turnFor: ReturnType<typeof scriptFromConversation>;

  constructor(turns = ORDER_TURNS) {
    this.turnFor = scriptFromConversation(turns);
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    return { usage: new Usage(), output: this.output(request), responseId: randomUUID() };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const turn = this.turnFor(
      typeof request.input === 'string' ? [{ role: 'user' }] : request.input,
    );
    yield { type: 'response_started' };
    for (const word of (turn.text ?? '').split(/(?<= )/))
      if (word) yield { type: 'output_text_delta', delta: word };
    yield {
      type: 'response_done',
      response: {
        id: randomUUID(),
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        output: this.output(request),
      },
    };
  }

  private output(request: ModelRequest): Output {
    const turn = this.turnFor(
      typeof request.input === 'string' ? [{ role: 'user' }] : request.input,
    );
    const output: Output = [];
    if (turn.text)
      output.push({
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: turn.text }],
      });
    for (const call of turn.toolCalls ?? []) {
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

function orderAgent(changes: OrderAgentChanges = {}) {
  const schemas = { ...ORDER_SCHEMAS, ...changes.schemas };
  const tools = ORDER_TOOLS.filter((t) => t.name !== changes.drop).map((t) =>
    tool({
      name: t.name,
      description: t.name,
      parameters: zodOf(schemas[t.name]),
      execute: (args, _context, details) =>
        t.execute(args as Record<string, unknown>, details?.signal ?? new AbortController().signal),
    }),
  );
  const agent = new Agent({
    name: 'orders',
    instructions: 'charge the order and send its receipt',
    model: new ConversationModel(changes.turns),
    tools,
  });
  const runner = new Runner({
    tracingDisabled: true,
    toolExecution: { maxFunctionToolConcurrency: 1 },
  });
  const toolTraits = Object.fromEntries(
    ORDER_TOOLS.map((t) => [t.name, { idempotent: t.idempotent ?? false }]),
  );
  return openAiAgent(agent, { runner, toolTraits, version: changes.version ?? '1.0.0' });
}

describe('verifyDurability on the OpenAI Agents adapter', () => {
  // On an Agents SDK before 0.19 (the oldest of the peer range) no parser is exposed: the resume lets the call through.
  describeOrderAgentDurability(orderAgent, {
    changes: WITH_CURRENCY,
    reason: 'invalid_arguments',
    checked: async () => (await sdkInputParser()) !== null,
  });
});
