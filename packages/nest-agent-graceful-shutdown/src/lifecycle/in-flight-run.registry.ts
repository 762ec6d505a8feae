import { Injectable } from '@nestjs/common';
import type { RunControl } from '../agent/run-control.js';
import type { StopReason } from '../agent/stop-reason.js';
import { RunningToolCalls } from './running-tool-calls.js';

/** Told of each run that leaves the registry, with how it ended (undefined: not said). */
export type RunEndedListener = (run: InFlightRun, stopReason: StopReason | undefined) => void;

/** A run this process is executing. */
export interface InFlightRun {
  threadId: string;
  runId: string;
  control: RunControl;
}

/**
 * The runs in flight in this process. The shutdown hook registers each run when it starts
 * and unregisters it once its final state is durable, on every path.
 */
@Injectable()
export class InFlightRunRegistry {
  private readonly runs = new Set<InFlightRun>();
  private readonly emptyWaiters = new Set<() => void>();
  private readonly endedListeners = new Set<RunEndedListener>();
  /** Tool calls of stopped runs whose tools, ignoring their abort, still run. */
  readonly toolCallsLeftRunning = new RunningToolCalls();

  get size(): number {
    return this.runs.size;
  }

  list(): InFlightRun[] {
    return [...this.runs];
  }

  /**
   * Adds a run; the returned function removes it, saying how it ended, and is safe to call
   * twice (only the first call counts).
   */
  register(run: InFlightRun): (stopReason?: StopReason) => void {
    this.runs.add(run);
    return (stopReason) => {
      if (!this.runs.delete(run)) return;
      for (const listener of this.endedListeners) listener(run, stopReason);
      if (this.runs.size > 0) return;
      for (const wake of this.emptyWaiters) wake();
    };
  }

  /**
   * Calls `listener` for each run that leaves the registry from now on.
   * @returns a function that unregisters the listener.
   */
  onRunEnded(listener: RunEndedListener): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  /** Resolves true once no run is in flight, or false after `timeoutMs`. */
  waitUntilEmpty(timeoutMs: number): Promise<boolean> {
    if (this.runs.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (empty: boolean) => {
        clearTimeout(timer);
        this.emptyWaiters.delete(wake);
        resolve(empty);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), Math.max(0, timeoutMs));
      timer.unref();
      this.emptyWaiters.add(wake);
    });
  }
}
