/** Why a run ended. Seen by after-run hooks and kept on the run record. */
export const StopReason = {
  /** The model answered without asking for tools. */
  Completed: 'completed',
  /** A user asked to stop the run. */
  Canceled: 'canceled',
  /** The process is shutting down; the run is saved with an interrupt marker and resumes later. */
  Interrupted: 'interrupted',
  /** A model call, a tool or a hook threw. */
  Failed: 'failed',
  /** The run reached its iteration limit without a final answer. */
  StepLimit: 'step_limit',
  /** The run paused before a tool call that needs a human's approval; it resumes with the answer. */
  AwaitingApproval: 'awaiting_approval',
} as const;

export type StopReason = (typeof StopReason)[keyof typeof StopReason];

/** Where in the ReAct loop a run was when it stopped. */
export type RunPhase = 'reasoning' | 'acting';
