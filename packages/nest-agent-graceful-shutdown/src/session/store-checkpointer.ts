import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { StepCheckpointer, StepProgress } from '../contracts/step-checkpointer.interface.js';
import type { ToolCallRecord } from '../contracts/session-records.js';
import type { SessionStore } from '../contracts/session-store.interface.js';
import type { StepCommit } from '../contracts/step-commit.js';
import { commitStepThrough } from './commit-step-through.js';

/** Confirms that a run still holds its thread's lease (see `LeaseKeeper.confirm`). */
export interface LeaseConfirmation {
  /** @param extendedAt `performance.now()` when the write that last extended the lease was sent. */
  confirm(extendedAt: number): Promise<void>;
}

/**
 * Checkpoints each finished step of one run into the session store. With `lease`, a tool call's
 * record resolves only once the run surely still holds its lease: the call runs right after.
 */
export class StoreCheckpointer implements StepCheckpointer {
  constructor(
    private readonly store: SessionStore,
    private readonly run: { threadId: string; runId: string; runKey: string },
    private readonly lease?: LeaseConfirmation,
  ) {}

  append(messages: readonly AgentMessage[], progress: StepProgress): Promise<void> {
    return this.store.appendMessages({ ...this.run, ...progress }, messages);
  }

  async commitStep(step: StepCommit, progress: StepProgress): Promise<void> {
    const sentAt = performance.now();
    await commitStepThrough(this.store, { ...this.run, ...progress }, step);
    if (step.startedCalls?.length) await this.lease?.confirm(sentAt);
  }

  async toolCallStarted(call: ToolCall, progress: StepProgress): Promise<void> {
    const sentAt = performance.now();
    await this.store.recordToolCallStarted({ ...this.run, ...progress }, call);
    await this.lease?.confirm(sentAt);
  }

  findToolCalls(toolCallIds: readonly string[]): Promise<ToolCallRecord[]> {
    return this.store.findToolCalls(this.run.threadId, toolCallIds);
  }

  saveState(state: unknown, progress: StepProgress): Promise<void> {
    return this.store.saveRunState({ ...this.run, ...progress }, state);
  }
}
