import { EventType, type BaseEvent } from '@ag-ui/core';

/** True for the events that end a run's stream: `RUN_FINISHED` and `RUN_ERROR`. */
export function isTerminal(event: BaseEvent): boolean {
  return event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;
}

/**
 * What a run's event stream has left open: whether a run segment started and has not
 * ended, its open steps, text message and tool calls. A stream that stops in the middle (a
 * stop, a handover, a crash) is closed with `closingEvents`, so every reader of the log sees
 * a well-formed AG-UI stream, whichever instance writes its continuation.
 */
export class StreamShape {
  /** A `RUN_STARTED` was seen and no terminal event after it. */
  started = false;
  private readonly steps: string[] = [];
  private readonly texts = new Set<string>();
  private readonly calls = new Set<string>();

  /** Follows one event. */
  see(event: BaseEvent): void {
    const e = event as BaseEvent & { stepName?: string; messageId?: string; toolCallId?: string };
    switch (event.type) {
      case EventType.RUN_STARTED:
        this.started = true;
        break;
      case EventType.STEP_STARTED:
        this.steps.push(e.stepName ?? '');
        break;
      case EventType.STEP_FINISHED: {
        const open = this.steps.lastIndexOf(e.stepName ?? '');
        if (open >= 0) this.steps.splice(open, 1);
        break;
      }
      case EventType.TEXT_MESSAGE_START:
        this.texts.add(e.messageId ?? '');
        break;
      case EventType.TEXT_MESSAGE_END:
        this.texts.delete(e.messageId ?? '');
        break;
      case EventType.TOOL_CALL_START:
        this.calls.add(e.toolCallId ?? '');
        break;
      case EventType.TOOL_CALL_END:
        this.calls.delete(e.toolCallId ?? '');
        break;
      default:
        if (isTerminal(event)) this.reset();
    }
  }

  /** The events that close what is open, innermost first (they are `see`n as well). */
  closingEvents(): BaseEvent[] {
    const events = [
      ...[...this.calls].map((toolCallId) => ({ type: EventType.TOOL_CALL_END, toolCallId })),
      ...[...this.texts].map((messageId) => ({ type: EventType.TEXT_MESSAGE_END, messageId })),
      ...[...this.steps].reverse().map((stepName) => ({ type: EventType.STEP_FINISHED, stepName })),
    ] as BaseEvent[];
    for (const event of events) this.see(event);
    return events;
  }

  private reset(): void {
    this.started = false;
    this.steps.length = 0;
    this.texts.clear();
    this.calls.clear();
  }
}
