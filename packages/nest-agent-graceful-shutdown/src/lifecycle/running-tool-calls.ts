import type { ToolCall } from '../agent/agent-message.js';

/** A tool call whose run stopped while its tool, ignoring the abort, still runs. */
export interface RunningToolCall {
  threadId: string;
  runId: string;
  call: ToolCall;
}

/**
 * The tool calls whose runs have stopped but whose tools still run: a tool that ignores its
 * abort signal. Its run did not wait for it (its outcome is recorded as unknown); each is
 * kept here until its work settles, so a shutdown can name the ones it abandons at exit.
 */
export class RunningToolCalls {
  private readonly calls = new Set<RunningToolCall>();

  /** Keeps `entry` until `work` settles. */
  add(entry: RunningToolCall, work: Promise<unknown>): void {
    this.calls.add(entry);
    const settled = () => void this.calls.delete(entry);
    work.then(settled, settled);
  }

  /** The calls still running now. */
  list(): RunningToolCall[] {
    return [...this.calls];
  }
}
