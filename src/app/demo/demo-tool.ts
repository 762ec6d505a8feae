import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import type { AgentTool, ToolCallContext, ToolDefinition } from 'nest-agent-graceful-shutdown';
import type { DemoLedger } from './demo-ledger';
import { StaleFencingTokenError } from './stale-fencing-token.error';

export const DEMO_TOOL_NAME = 'demo_step';

/**
 * The demo tool: takes `toolMs`, then records its effect in the ledger and returns a result
 * naming its step. The ledger makes it safe to run twice: a second execution of one call (same
 * idempotency key) returns the recorded result, and one from a run attempt that lost its lease
 * (a lower fencing token) is refused. Each call logs `demo tool started` and `demo tool finished`
 * with its ids, key and token: the execution ledger the rolling-deployment proof counts
 * duplicated work from.
 */
export class DemoTool implements AgentTool {
  readonly idempotent = true;
  private readonly logger = new Logger(DemoTool.name);
  readonly definition: ToolDefinition = {
    name: DEMO_TOOL_NAME,
    description: 'Performs one numbered step of the demo task.',
    parameters: {
      type: 'object',
      properties: { step: { type: 'integer', minimum: 1 } },
      required: ['step'],
    },
  };

  /**
   * @param toolMs how long one call takes, in milliseconds
   * @param ledger where each call's effect is recorded, once per idempotency key
   * @param requiresApproval whether each call waits for a human's approval (`DEMO_REQUIRE_APPROVAL`)
   */
  constructor(
    private readonly toolMs: number,
    private readonly ledger: DemoLedger,
    readonly requiresApproval = false,
  ) {}

  /** Honest about time: a shutdown's drain does not start a call it cannot finish. */
  get expectedDurationMs(): number {
    return this.toolMs;
  }

  async execute(args: unknown, context: ToolCallContext): Promise<string> {
    const step = (args as { step?: unknown }).step;
    const ids = {
      threadId: context.threadId,
      runId: context.runId,
      toolCallId: context.toolCallId,
      step,
      idempotencyKey: context.idempotencyKey,
      fencingToken: context.fencingToken,
    };
    this.logger.log({ msg: 'demo tool started', ...ids });
    await sleep(this.toolMs, undefined, { signal: context.signal });
    // From here on the effect is written whatever the signal says: a write abandoned halfway
    // would leave the caller not knowing whether it happened.
    const effect = await this.recordEffect(
      context,
      typeof step === 'number' ? step : null,
      `step ${String(step)} done`,
      ids,
    );
    this.logger.log({ msg: 'demo tool finished', ...ids, duplicate: effect.duplicate });
    return effect.result;
  }

  private async recordEffect(
    context: ToolCallContext,
    step: number | null,
    result: string,
    ids: Record<string, unknown>,
  ) {
    try {
      return await this.ledger.record({
        idempotencyKey: context.idempotencyKey,
        fencingToken: context.fencingToken,
        threadId: context.threadId,
        toolCallId: context.toolCallId,
        step,
        result,
      });
    } catch (error) {
      if (error instanceof StaleFencingTokenError) {
        this.logger.warn({
          msg: 'demo tool effect refused',
          ...ids,
          staleToken: error.staleToken,
          currentToken: error.currentToken,
        });
      }
      throw error;
    }
  }
}
