import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  Usage,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
} from '@openai/agents';
import { DEMO_TOOL_NAME } from '../../demo/demo-tool';

type Output = ModelResponse['output'];

/** Settings of the demo model. */
export interface DemoAgentsModelOptions {
  /** Tool rounds per user message. */
  steps: number;
  /** How long one reasoning call takes, in milliseconds. */
  reasoningMs: number;
}

/**
 * The demo model as an OpenAI Agents SDK `Model`: deterministic and offline. For each user
 * message it asks for `demo_step` with `{ step: i }` for i = 1..steps, one per call, then
 * answers in text. It reads which steps already have a result from its input, so a resumed run
 * goes on where it stopped. Each call takes `reasoningMs` and honours the request's signal.
 */
export class DemoAgentsModel implements Model {
  constructor(private readonly options: DemoAgentsModelOptions) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const output = await this.decide(request);
    return {
      usage: new Usage({ requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 }),
      output,
      responseId: randomUUID(),
    };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const output = await this.decide(request);
    yield { type: 'response_started' };
    for (const item of output) {
      if (item.type === 'message' && item.role === 'assistant') {
        for (const part of item.content)
          if (part.type === 'output_text') yield { type: 'output_text_delta', delta: part.text };
      }
    }
    yield {
      type: 'response_done',
      response: {
        id: randomUUID(),
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        output: output as never,
      },
    };
  }

  private async decide(request: ModelRequest): Promise<Output> {
    await sleep(this.options.reasoningMs, undefined, { signal: request.signal });
    const items: AgentInputItem[] =
      typeof request.input === 'string'
        ? [{ role: 'user', content: request.input }]
        : request.input;
    const done = completedSteps(items);
    for (let step = 1; step <= this.options.steps; step++) {
      if (done.has(step)) continue;
      return [
        {
          type: 'function_call',
          callId: `call_${randomUUID()}`,
          name: DEMO_TOOL_NAME,
          arguments: JSON.stringify({ step }),
          status: 'completed',
        },
      ];
    }
    const text = `All ${this.options.steps} steps are done for: ${lastUserText(items)}`;
    return [
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text }],
      },
    ];
  }
}

/** Steps that have a tool result after the last user message. */
function completedSteps(items: readonly AgentInputItem[]): Set<number> {
  const start = items.map((item) => ('role' in item ? item.role : undefined)).lastIndexOf('user');
  const after = items.slice(start + 1);
  const answered = new Set(
    after.flatMap((item) => (item.type === 'function_call_result' ? [item.callId] : [])),
  );
  const steps = new Set<number>();
  for (const item of after) {
    if (item.type !== 'function_call' || item.name !== DEMO_TOOL_NAME || !answered.has(item.callId))
      continue;
    const step = Number((JSON.parse(item.arguments) as { step?: unknown }).step);
    if (Number.isInteger(step)) steps.add(step);
  }
  return steps;
}

function lastUserText(items: readonly AgentInputItem[]): string {
  const user = [...items].reverse().find((item) => 'role' in item && item.role === 'user');
  if (!user || !('content' in user)) return '';
  const content = user.content as string | Array<{ type: string; text?: string }>;
  return typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('');
}
