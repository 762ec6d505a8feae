import type { ToolFence } from '../agent/tool-fence.js';
import type { DurableAgent } from '../handle/run-handle.interface.js';

/** One scripted model answer: text, tool calls, or both. */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: ReadonlyArray<{ id: string; name: string; arguments: string }>;
}

/** A tool of the agent under test, in neutral terms; the harness turns it into its framework's tool. */
export interface ContractTool {
  name: string;
  /** Safe to run twice. @default false */
  idempotent?: boolean;
  /** Each call waits for a human's approval. @default false */
  requiresApproval?: boolean;
  /** Calls of one step may run at the same time. @default false */
  parallelSafe?: boolean;
  /**
   * Runs the call; must honour `signal`. `fence` is the call's idempotency key and fencing token
   * as the framework's tool code reads them (the harness passes what its tool was given).
   */
  execute(args: Record<string, unknown>, signal: AbortSignal, fence?: ToolFence): Promise<string>;
}

/**
 * What a framework adapter gives the run-handle contract suite: an agent written with its
 * framework whose model plays `turns` in order, one per model call (the last one repeats), and
 * holds a call while `hold` (when given) has not resolved, honouring the abort signal.
 */
export interface RunHandleHarness {
  agent(options: {
    turns: readonly ScriptedTurn[];
    tools: readonly ContractTool[];
    hold?: (call: number) => Promise<void> | undefined;
  }): {
    agent: DurableAgent;
    /** How many model calls were made. */
    modelCalls(): number;
  };
}

/**
 * Waits for `hold` (a scripted model call held back by the contract suite), or rejects as soon
 * as `signal` aborts, as a model call honouring its abort signal does.
 */
export function waitForHold(
  hold: Promise<void> | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (!hold) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    void hold.then(resolve);
  });
}
