import { EventEmitter } from 'node:events';
import type {
  CancelSignal,
  RunEndedSignal,
  SignalBus,
  SignalBusHealth,
  Unsubscribe,
} from '../contracts/signal-bus.interface.js';

const key = (threadId: string, runId: string) => `${threadId}\u0000${runId}`;
/** The event of every run's end: no run key can be empty. */
const ANY_RUN = '';

/**
 * Signals within one process. A cancel is remembered for `cancelTtlMs`, so a run that
 * subscribes just after the cancel was published still sees it.
 */
export class InProcessSignalBus implements SignalBus {
  private readonly cancels = new EventEmitter().setMaxListeners(0);
  private readonly ended = new EventEmitter().setMaxListeners(0);
  /** Each remembered cancel with the time it is forgotten, in epoch milliseconds. */
  private readonly recentCancels = new Map<string, { expiresAt: number; signal: CancelSignal }>();

  /** @param cancelTtlMs how long a published cancel is remembered, in milliseconds. */
  constructor(private readonly cancelTtlMs = 60_000) {}

  async publishCancel(signal: CancelSignal): Promise<void> {
    const id = key(signal.threadId, signal.runId);
    this.prune();
    this.recentCancels.set(id, { expiresAt: Date.now() + this.cancelTtlMs, signal });
    this.cancels.emit(id, signal);
  }

  onCancel(threadId: string, runId: string, handler: (signal?: CancelSignal) => void): Unsubscribe {
    const id = key(threadId, runId);
    this.cancels.on(id, handler);
    const recent = this.recentCancels.get(id);
    if (recent !== undefined && recent.expiresAt > Date.now())
      queueMicrotask(() => handler(recent.signal));
    return () => this.cancels.off(id, handler);
  }

  async publishRunEnded(signal: RunEndedSignal): Promise<void> {
    const id = key(signal.threadId, signal.runId);
    // The cancel was for the run that just ended; a retry with the same run id is a new attempt.
    this.recentCancels.delete(id);
    this.ended.emit(id, signal);
    this.ended.emit(ANY_RUN, signal);
  }

  onAnyRunEnded(handler: (signal: RunEndedSignal) => void): Unsubscribe {
    this.ended.on(ANY_RUN, handler);
    return () => this.ended.off(ANY_RUN, handler);
  }

  onRunEnded(
    threadId: string,
    runId: string,
    handler: (signal: RunEndedSignal) => void,
  ): Unsubscribe {
    const id = key(threadId, runId);
    this.ended.on(id, handler);
    return () => this.ended.off(id, handler);
  }

  /** Always connected: there is nothing between publisher and subscriber to lose. */
  health(): SignalBusHealth {
    return { transport: 'in-process', connected: true };
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, { expiresAt }] of this.recentCancels)
      if (expiresAt <= now) this.recentCancels.delete(id);
  }
}
