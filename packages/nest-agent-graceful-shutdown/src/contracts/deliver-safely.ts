import type { LoggedEvent, RunLogListener } from './run-event-log.interface.js';
/** A listener that throws must not keep the others, or the appender, from their events. */
export function deliverSafely(listener: RunLogListener, events: readonly LoggedEvent[]): void {
  try {
    listener.onEvents(events);
  } catch (error) {
    listener.onError?.(error instanceof Error ? error : new Error(String(error)));
  }
}
