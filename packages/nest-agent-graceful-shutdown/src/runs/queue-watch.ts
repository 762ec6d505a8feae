import { Injectable } from '@nestjs/common';
import type { Unsubscribe } from '../contracts/signal-bus.interface.js';

/**
 * Threads whose queued runs this instance should start as their turn comes (multitask
 * `enqueue`): told by the run service when it queues a run, joins one, or starts a run on a
 * thread with a queue; heard by `QueuedRunStarter`. Keeps the two apart, as the starter starts
 * runs through the run service.
 */
@Injectable()
export class QueueWatch {
  private readonly listeners = new Set<(threadId: string) => void>();

  /** Asks for the thread's queue to be watched on this instance. */
  watch(threadId: string): void {
    for (const listener of this.listeners) listener(threadId);
  }

  onWatch(listener: (threadId: string) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
