import type { StopReason } from '../agent/stop-reason.js';

/**
 * Leaves an agent loop at a safe point where the run was told to stop (`RunHandle.stopped`).
 * The module recognises it when the run ends: it is how the run stopped, not a failure.
 */
export class RunStoppedError extends Error {
  override readonly name = 'RunStoppedError';

  constructor(
    readonly reason: StopReason,
    readonly detail?: string,
  ) {
    super(`the run stopped at a safe point: ${reason}${detail ? ` (${detail})` : ''}`);
  }
}
