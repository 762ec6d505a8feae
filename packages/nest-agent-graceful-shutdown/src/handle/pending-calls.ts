import type { ToolCall } from '../agent/agent-message.js';
import type { PendingToolCall } from '../agent/run-outcome.js';

/** The calls of the current step without a result, in the order they were asked for. */
export class PendingCalls {
  private readonly calls = new Map<string, PendingToolCall>();

  get size(): number {
    return this.calls.size;
  }

  /** Adds calls not yet known, as not started. */
  add(...calls: readonly ToolCall[]): void {
    for (const call of calls)
      if (!this.calls.has(call.id)) this.calls.set(call.id, { ...call, started: false });
  }

  /** The call may be running from now on: its outcome is unknown until it has a result. */
  start(call: ToolCall): void {
    this.add(call);
    this.calls.get(call.id)!.started = true;
  }

  /** The call has its result. */
  resolve(callId: string): void {
    this.calls.delete(callId);
  }

  /** Every call without a result, started or not (an outcome's `pendingToolCalls`). */
  list(): PendingToolCall[] {
    return [...this.calls.values()].map((call) => ({ ...call }));
  }

  /** The calls that have not started. */
  notStarted(): ToolCall[] {
    return [...this.calls.values()]
      .filter((call) => !call.started)
      .map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));
  }
}
