import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import type { AgentTool, ToolCallContext, ToolDefinition } from 'nest-agent-graceful-shutdown';

export const DEMO_TOOL_NAME = 'demo_step';

/**
 * The demo tool: takes `toolMs` and returns a result naming its step. It has no side effect, so it
 * is idempotent. Each call logs `demo tool started` and `demo tool finished` with its ids: the
 * execution ledger the rolling-deployment proof counts duplicated work from.
 */
export class DemoTool implements AgentTool {
  readonly idempotent = true;
  private readonly logger = new Logger(DemoTool.name);
  readonly definition: ToolDefinition = {
    name: DEMO_TOOL_NAME,
    description: 'Performs one numbered step of the demo task.',
    parameters: { type: 'object', properties: { step: { type: 'integer', minimum: 1 } }, required: ['step'] },
  };

  /**
   * @param toolMs how long one call takes, in milliseconds
   * @param requiresApproval whether each call waits for a human's approval (`DEMO_REQUIRE_APPROVAL`)
   */
  constructor(
    private readonly toolMs: number,
    readonly requiresApproval = false,
  ) {}

  /** Honest about time: a shutdown's drain does not start a call it cannot finish. */
  get expectedDurationMs(): number {
    return this.toolMs;
  }

  async execute(args: unknown, context: ToolCallContext): Promise<string> {
    const step = (args as { step?: unknown }).step;
    const ids = { threadId: context.threadId, runId: context.runId, toolCallId: context.toolCallId, step };
    this.logger.log({ msg: 'demo tool started', ...ids });
    await sleep(this.toolMs, undefined, { signal: context.signal });
    this.logger.log({ msg: 'demo tool finished', ...ids });
    return `step ${String(step)} done`;
  }
}
