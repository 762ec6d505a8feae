import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  AgentMessage,
  AgentModel,
  ModelCallContext,
  ModelRequest,
  ModelResponse,
} from 'nest-agent-graceful-shutdown';
import { DEMO_TOOL_NAME } from './demo-tool';

/** Settings of the demo model. */
export interface DemoModelOptions {
  /** Tool rounds per user message. */
  steps: number;
  /** How long one reasoning call takes, in milliseconds. */
  reasoningMs: number;
}

/**
 * A deterministic, offline model. For each user message it asks for `demo_step` with
 * `{ step: i }` for i = 1..steps, one per reasoning call, then answers in text. It reads
 * which steps already have a result from the history, so a resumed run goes on where it
 * stopped instead of starting over.
 */
export class DemoModel implements AgentModel {
  readonly name = 'demo';
  /** Honest about time: a shutdown's drain does not start a call it cannot finish. */
  readonly expectedDurationMs: number;

  constructor(private readonly options: DemoModelOptions) {
    this.expectedDurationMs = options.reasoningMs;
  }

  async generate(request: ModelRequest, context: ModelCallContext): Promise<ModelResponse> {
    await sleep(this.options.reasoningMs, undefined, { signal: context.signal });
    const done = completedSteps(request.messages);
    for (let step = 1; step <= this.options.steps; step++) {
      if (done.has(step)) continue;
      return {
        content: '',
        toolCalls: [
          { id: `call_${randomUUID()}`, name: DEMO_TOOL_NAME, arguments: JSON.stringify({ step }) },
        ],
      };
    }
    return {
      content: `All ${this.options.steps} steps are done for: ${lastUserText(request.messages)}`,
      toolCalls: [],
    };
  }
}

/** Steps that have a tool result after the last user message. */
function completedSteps(messages: readonly AgentMessage[]): Set<number> {
  const start = messages.map((m) => m.role).lastIndexOf('user');
  const after = messages.slice(start + 1);
  const answered = new Set(after.filter((m) => m.role === 'tool').map((m) => m.toolCallId));
  const steps = new Set<number>();
  for (const message of after) {
    for (const call of message.toolCalls ?? []) {
      if (call.name !== DEMO_TOOL_NAME || !answered.has(call.id)) continue;
      const step = Number((JSON.parse(call.arguments) as { step?: unknown }).step);
      if (Number.isInteger(step)) steps.add(step);
    }
  }
  return steps;
}

function lastUserText(messages: readonly AgentMessage[]): string {
  return [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
}
