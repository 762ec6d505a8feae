import type { RunReplacement } from '../agent/multitask.js';
import type { StopReason } from '../agent/stop-reason.js';
import type { RunStatus } from './session-records.js';

/** A user's request to stop one run. */
export interface CancelSignal {
  threadId: string;
  runId: string;
  /** When the cancel was accepted, in epoch milliseconds: its delivery is measured from here. */
  requestedAt?: number;
  /** Set when a new run of the thread asked for the stop (multitask `interrupt`). */
  replacedBy?: RunReplacement;
}

/** Tells waiters that a run has ended and its final state is durable. */
export interface RunEndedSignal {
  threadId: string;
  runId: string;
  status: RunStatus;
  stopReason: StopReason;
}

/** Call to stop listening. */
export type Unsubscribe = () => void;

/** How the bus reaches other instances, for a health check. */
export interface SignalBusHealth {
  transport: 'in-process' | 'redis' | 'postgres';
  /** False while the transport is unreachable; signals then stay on this instance. */
  connected: boolean;
  /** ISO time of the last change of `connected`, where the transport tracks it. */
  since?: string;
}

/**
 * Carries stop requests and run-ended notices to whichever instance runs the thread.
 * In-process by default; a Redis or PostgreSQL bus serves many instances.
 */
export interface SignalBus {
  /** Delivers a cancel to the run's subscriber now, or at its subscription if it comes later. */
  publishCancel(signal: CancelSignal): Promise<void>;
  /** Listens for cancels of one run; fires at once if one was published before. */
  onCancel(threadId: string, runId: string, handler: (signal?: CancelSignal) => void): Unsubscribe;
  publishRunEnded(signal: RunEndedSignal): Promise<void>;
  onRunEnded(
    threadId: string,
    runId: string,
    handler: (signal: RunEndedSignal) => void,
  ): Unsubscribe;
  /**
   * Listens for the end of every run, on every instance: how an instance in resume mode
   * `auto` learns at once of a run another one interrupted. Optional: without it, the
   * periodic sweep finds such runs.
   */
  onAnyRunEnded?(handler: (signal: RunEndedSignal) => void): Unsubscribe;
  /** Reports the transport's state; optional so custom buses need not track one. */
  health?(): SignalBusHealth;
}

export { SIGNAL_BUS } from '../tokens/graceful-shutdown.tokens.js';
