import type {
  AgentMessage,
  ToolCall,
} from '../../packages/nest-agent-graceful-shutdown/src/agent/agent-message';
import type { ToolCallRecord } from '../../packages/nest-agent-graceful-shutdown/src/contracts/session-records';
import type {
  StepCheckpointer,
  StepProgress,
} from '../../packages/nest-agent-graceful-shutdown/src/contracts/step-checkpointer.interface';
import { timeWrite } from './step-clock';

/** A run's checkpointer whose every write is added to the write wait of the step it holds (see `timeWrite`). */
export class TimedCheckpointer implements StepCheckpointer {
  constructor(private readonly inner: Required<StepCheckpointer>) {}

  append(messages: readonly AgentMessage[], progress: StepProgress): Promise<void> {
    return timeWrite(() => this.inner.append(messages, progress));
  }

  toolCallStarted(call: ToolCall, progress: StepProgress): Promise<void> {
    return timeWrite(() => this.inner.toolCallStarted(call, progress));
  }

  findToolCalls(toolCallIds: readonly string[]): Promise<ToolCallRecord[]> {
    return timeWrite(() => this.inner.findToolCalls(toolCallIds));
  }

  saveState(state: unknown, progress: StepProgress): Promise<void> {
    return timeWrite(() => this.inner.saveState(state, progress));
  }
}
