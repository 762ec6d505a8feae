import { randomUUID } from 'node:crypto';
import { EventType, type BaseEvent } from '@ag-ui/core';
import type {
  LoggedEvent,
  RunLogKey,
  RunLogListener,
} from '../contracts/run-event-log.interface.js';

/** A run of its own, so tests never share a log even on a shared store. */
export const freshRun = (): RunLogKey => ({
  threadId: `thread-${randomUUID()}`,
  runId: `run-${randomUUID()}`,
});

/** Logged text deltas with ids `from`…`to`. */
export function loggedEvents(from: number, to: number): LoggedEvent[] {
  const events: LoggedEvent[] = [];
  for (let id = from; id <= to; id++) {
    events.push({
      id,
      event: {
        type: EventType.TEXT_MESSAGE_CONTENT,
        messageId: 'message-1',
        delta: `delta ${id}`,
      } as BaseEvent,
    });
  }
  return events;
}

/** The ids of logged events, which say most of what a test checks. */
export const idsOf = (events: readonly LoggedEvent[] | null): number[] | null =>
  events?.map((logged) => logged.id) ?? null;

/** A listener that keeps what it got. */
export class RecordingListener implements RunLogListener {
  readonly received: LoggedEvent[] = [];
  readonly errors: Error[] = [];
  onEvents = (events: readonly LoggedEvent[]): void => void this.received.push(...events);
  onError = (error: Error): void => void this.errors.push(error);
  get ids(): number[] {
    return this.received.map((logged) => logged.id);
  }
}

/** Resolves once `condition` holds, polling every few milliseconds; fails after `timeoutMs`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
