import type { RunReplacement } from './multitask.js';
import type { StopReason } from './stop-reason.js';

/** A request to stop one run, with who asked and why. */
export interface StopRequest {
  reason: StopReason;
  detail?: string;
  /** The failure behind a `failed` stop, reported as the run's error. */
  error?: Error;
  /** When the stop was asked for, in epoch milliseconds (for a cancel: when it was accepted). */
  requestedAt: number;
  /** A cancel asked for by a new run of the thread (multitask `interrupt`): which, and how. */
  replacedBy?: RunReplacement;
}

/**
 * Stops one run: records why, and aborts the model or tool call in progress through
 * `signal`. The first request wins; later ones are ignored.
 */
export class RunControl {
  private readonly abortController = new AbortController();
  private request?: StopRequest;

  /** Aborted as soon as a stop is requested. */
  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  /** The stop asked for, if any. */
  get stopRequest(): StopRequest | undefined {
    return this.request;
  }

  /**
   * Asks the run to stop at its next safe point and aborts the call in progress.
   * @param requestedAt when the stop was asked for, in epoch milliseconds; default now.
   * @param replacedBy the new run a `canceled` stop makes way for (multitask `interrupt`).
   */
  requestStop(
    reason: StopReason,
    detail?: string,
    error?: Error,
    requestedAt = Date.now(),
    replacedBy?: RunReplacement,
  ): void {
    if (this.request) return;
    this.request = { reason, detail, error, requestedAt, ...(replacedBy ? { replacedBy } : {}) };
    this.abortController.abort(this.request);
  }
}
