import type { ToolCall } from '../agent/agent-message.js';
import type { ModelUsage } from '../agent/agent-model.interface.js';
import type { RunPhase } from '../agent/stop-reason.js';
import type { DiscardedTokens } from '../agent/discarded-tokens.js';

/**
 * What a run's handle reports as it goes, for traces and metrics: steps, model answers,
 * tool calls and checkpoints. `NO_INSTRUMENTS` reports nothing.
 */
export interface RunInstruments {
  stepStarted(phase: RunPhase, iteration: number): void;
  stepEnded(phase: RunPhase): void;
  /** A model call's token usage. */
  modelUsage(usage: ModelUsage): void;
  /** The model answered, asking for `toolCalls` tool calls. */
  modelAnswered(toolCalls: number): void;
  /** A stop cut a model call off: the tokens it cost for nothing. */
  modelTokensDiscarded(tokens: DiscardedTokens): void;
  /** Runs one tool call's execution, measured. */
  tool<T>(call: ToolCall, work: () => Promise<T>): Promise<T>;
  /** A checkpoint write took `seconds`. */
  checkpointWritten(seconds: number): void;
  /** The run stopped: steps and calls still open end here. */
  stopped(stopReason: string): void;
}

/** Instruments that report nothing: the default of a handle made outside the module. */
export const NO_INSTRUMENTS: RunInstruments = {
  stepStarted: () => undefined,
  stepEnded: () => undefined,
  modelUsage: () => undefined,
  modelAnswered: () => undefined,
  modelTokensDiscarded: () => undefined,
  tool: (_call, work) => work(),
  checkpointWritten: () => undefined,
  stopped: () => undefined,
};
