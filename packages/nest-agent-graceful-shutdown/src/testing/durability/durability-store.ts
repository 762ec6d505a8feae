import type { ToolCall } from '../../agent/agent-message.js';
import type { NotRunCall } from '../../agent/agent-release.js';
import { MemoryCheckpointer } from '../memory-checkpointer.js';

/** One tool execution: a `started` record made durable, in the attempt that made it. */
export interface ToolExecution {
  attempt: number;
  call: ToolCall;
}

/**
 * The durable state of one thread across the attempts of a durability check (messages,
 * tool-call records, framework state), as a store keeps it between processes; it also keeps
 * the ledger of tool executions (each `started` record written) and tells of each as it is durable.
 */
export class DurabilityStore extends MemoryCheckpointer {
  /** Every execution, in order, across attempts. */
  readonly executions: ToolExecution[] = [];
  /** The attempt now writing (1 for the first). */
  attempt = 1;
  /** Told once a call's `started` record is durable, before the tool runs. */
  onStarted?: (call: ToolCall) => void;

  override async toolCallStarted(call: ToolCall): Promise<void> {
    await super.toolCallStarted(call);
    this.executions.push({
      attempt: this.attempt,
      call: { id: call.id, name: call.name, arguments: call.arguments },
    });
    this.onStarted?.(call);
  }

  /** Records calls a resume answered without running them, as the store's `startRun` does. */
  recordNotRun(calls: readonly NotRunCall[]): void {
    for (const { call, result } of calls) {
      this.seed(call, result);
      Object.assign(this.records.get(call.id)!, { status: 'not_run' });
    }
  }
}
