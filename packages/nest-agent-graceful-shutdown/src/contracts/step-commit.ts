import type { AgentMessage, ToolCall } from '../agent/agent-message.js';

/**
 * Everything one finished step makes durable, written at once (one transaction, or one
 * statement where the database allows): its messages, the tool calls it is about to run, and
 * the agent framework's state. The same write extends the run's lease and records the run's
 * iteration and phase.
 */
export interface StepCommit {
  /**
   * Messages appended to the history, in order. A tool message also marks its call's record
   * finished, with the result. @default none
   */
  messages?: readonly AgentMessage[];
  /**
   * Tool calls about to run, recorded as started (before they run: a resumed run does not
   * silently run a started call twice). Their results come in a later commit, never in this
   * one. @default none
   */
  startedCalls?: readonly ToolCall[];
  /** The framework's state of the thread: replaced when set, cleared by null, kept as it is when undefined. */
  state?: unknown;
}

/** True when the commit writes nothing but the lease extension and the run's progress. */
export function isEmptyStep(step: StepCommit): boolean {
  return !step.messages?.length && !step.startedCalls?.length && step.state === undefined;
}
