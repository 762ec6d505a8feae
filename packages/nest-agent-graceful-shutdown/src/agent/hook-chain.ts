import type { AgentHook, HookDecision, RunEndEvent } from './agent-hook.interface.js';
import { EventLogger } from '../logging/event-logger.js';

type DecisionPoint = 'preReasoning' | 'postReasoning' | 'preActing' | 'postActing';

/** One logger for every chain: a run holds nothing of its own for logging. */
const logger = new EventLogger('HookChain');

/** A hook that answered synchronously is not awaited: a run passes its safe points, and a shutdown ends thousands of runs, without a promise per hook. */
const isPromise = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as PromiseLike<T> | undefined)?.then === 'function';

/** Calls an ordered list of hooks; the first stop decision wins. */
export class HookChain {
  constructor(private readonly hooks: readonly AgentHook[]) {}

  async onRunStart(event: Parameters<NonNullable<AgentHook['onRunStart']>>[0]): Promise<void> {
    for (const hook of this.hooks) {
      const started = hook.onRunStart?.(event);
      if (isPromise(started)) await started;
    }
  }

  async decide<P extends DecisionPoint>(
    point: P,
    event: Parameters<NonNullable<AgentHook[P]>>[0],
  ): Promise<HookDecision> {
    for (const hook of this.hooks) {
      const handler = hook[point] as
        ((e: typeof event) => HookDecision | Promise<HookDecision>) | undefined;
      const answer = handler?.call(hook, event);
      const decision = isPromise(answer) ? await answer : answer;
      if (decision) return decision;
    }
    return undefined;
  }

  /** Every hook sees the end, even when an earlier one throws. */
  async onRunEnd(event: RunEndEvent): Promise<void> {
    for (const hook of this.hooks) {
      try {
        const ended = hook.onRunEnd?.(event);
        if (isPromise(ended)) await ended;
      } catch (error) {
        logger.error('run end hook failed', {
          threadId: event.threadId,
          runId: event.runId,
          error: String(error),
        });
      }
    }
  }
}
