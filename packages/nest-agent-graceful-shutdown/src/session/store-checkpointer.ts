import type { AgentMessage, ToolCall } from '../agent/agent-message';
import type { StepCheckpointer, StepProgress } from '../agent/step-checkpointer.interface';
import type { ToolCallRecord } from './session-records';
import type { SessionStore } from './session-store.interface';

/** Checkpoints each finished step of one run into the session store. */
export class StoreCheckpointer implements StepCheckpointer {
  constructor(
    private readonly store: SessionStore,
    private readonly run: { threadId: string; runId: string; runKey: string },
  ) {}

  append(messages: readonly AgentMessage[], progress: StepProgress): Promise<void> {
    return this.store.appendMessages({ ...this.run, ...progress }, messages);
  }

  toolCallStarted(call: ToolCall, progress: StepProgress): Promise<void> {
    return this.store.recordToolCallStarted({ ...this.run, ...progress }, call);
  }

  findToolCalls(toolCallIds: readonly string[]): Promise<ToolCallRecord[]> {
    return this.store.findToolCalls(this.run.threadId, toolCallIds);
  }

  saveState(state: unknown, progress: StepProgress): Promise<void> {
    return this.store.saveRunState({ ...this.run, ...progress }, state);
  }
}
