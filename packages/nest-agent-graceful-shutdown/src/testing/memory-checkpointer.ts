import type { AgentMessage, ToolCall } from '../agent/agent-message.js';
import type { StepCheckpointer } from '../contracts/step-checkpointer.interface.js';
import type { StepCommit } from '../contracts/step-commit.js';
import type { ToolCallRecord } from '../contracts/session-records.js';

/**
 * A checkpointer that keeps everything in memory and remembers every write, for specs: what
 * each checkpoint carried, the tool-call records, the saved framework state.
 */
export class MemoryCheckpointer implements StepCheckpointer {
  /** Each write, as one step commit, in order. */
  readonly commits: StepCommit[] = [];
  /** The messages of each `append`, in order. */
  readonly appends: AgentMessage[][] = [];
  readonly records = new Map<string, ToolCallRecord>();
  state: unknown = null;

  /** Every message appended, in order. */
  get messages(): AgentMessage[] {
    return this.appends.flat();
  }

  /** Seeds the record of a call an earlier attempt started (and finished, with `result`). */
  seed(call: ToolCall, result?: string): void {
    this.records.set(call.id, {
      threadId: 't',
      toolCallId: call.id,
      runKey: 'earlier',
      toolName: call.name,
      arguments: call.arguments,
      status: result === undefined ? 'started' : 'finished',
      result: result ?? null,
      startedAt: new Date(0).toISOString(),
      finishedAt: result === undefined ? null : new Date(0).toISOString(),
    });
  }

  /** One write: its started calls, then its messages, then its state. */
  async commitStep(step: StepCommit): Promise<void> {
    this.commits.push(step);
    for (const call of step.startedCalls ?? []) await this.toolCallStarted(call);
    if (step.messages?.length) await this.append(step.messages);
    if (step.state !== undefined) await this.saveState(step.state);
  }

  async append(messages: readonly AgentMessage[]): Promise<void> {
    this.appends.push([...messages]);
    for (const message of messages) {
      const record =
        message.role === 'tool' && message.toolCallId
          ? this.records.get(message.toolCallId)
          : undefined;
      if (record)
        Object.assign(record, {
          status: 'finished',
          result: message.content,
          finishedAt: new Date().toISOString(),
        });
    }
  }

  async toolCallStarted(call: ToolCall): Promise<void> {
    this.seed(call);
    this.records.get(call.id)!.runKey = 'this';
  }

  async findToolCalls(toolCallIds: readonly string[]): Promise<ToolCallRecord[]> {
    return toolCallIds.flatMap((id) =>
      this.records.has(id) ? [{ ...this.records.get(id)! }] : [],
    );
  }

  async saveState(state: unknown): Promise<void> {
    this.state = state;
  }
}
