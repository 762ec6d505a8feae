import { Logger } from '@nestjs/common';
import type { AgentHook, HookDecision, RunEndEvent } from './agent-hook.interface';

type DecisionPoint = 'preReasoning' | 'postReasoning' | 'preActing' | 'postActing';

/** Calls an ordered list of hooks; the first stop decision wins. */
export class HookChain {
  private readonly logger = new Logger('HookChain');

  constructor(private readonly hooks: readonly AgentHook[]) {}

  async onRunStart(event: Parameters<NonNullable<AgentHook['onRunStart']>>[0]): Promise<void> {
    for (const hook of this.hooks) await hook.onRunStart?.(event);
  }

  async decide<P extends DecisionPoint>(point: P, event: Parameters<NonNullable<AgentHook[P]>>[0]): Promise<HookDecision> {
    for (const hook of this.hooks) {
      const handler = hook[point] as ((e: typeof event) => HookDecision | Promise<HookDecision>) | undefined;
      const decision = await handler?.call(hook, event);
      if (decision) return decision;
    }
    return undefined;
  }

  /** Every hook sees the end, even when an earlier one throws. */
  async onRunEnd(event: RunEndEvent): Promise<void> {
    for (const hook of this.hooks) {
      try {
        await hook.onRunEnd?.(event);
      } catch (error) {
        this.logger.error({ msg: 'run end hook failed', threadId: event.threadId, runId: event.runId, error: String(error) });
      }
    }
  }
}
