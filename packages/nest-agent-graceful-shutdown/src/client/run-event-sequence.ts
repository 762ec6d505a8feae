import { EventType, type BaseEvent } from '@ag-ui/core';
import { EventGapError } from './event-gap.error.js';
import type { SseFrame } from './sse-frame-parser.js';
import {
  isAttemptNotice,
  isHandoverNotice,
  isInterruption,
  isTerminalEvent,
  parseStreamEvent,
} from './stream-events.js';

/** What one frame means for the run: the event to deliver, if any, and what the follower does next. */
export interface FrameVerdict {
  /** `continue` reading; `handover`, `gap`: join; `interrupted`: resend the POST; `finished`: the run is over. */
  action: 'continue' | 'handover' | 'gap' | 'interrupted' | 'finished';
  /** The event to hand to the subscribers. */
  deliver?: BaseEvent;
  /** Whether the frame was new to the run (a next id, or no id): the stream made progress. */
  progressed: boolean;
}

/**
 * The run's events as the subscribers see them, across every connection: each id once and in
 * order (an id at or below the last one is dropped; one beyond the next is a gap, and a second
 * gap in a row without progress between them is an `EventGapError`), one `RUN_STARTED`, no
 * `handover` notice and, with `retryInterrupted`, no `RUN_ERROR` `RUN_INTERRUPTED` nor the
 * `run_interrupted` and `run_resumed` notices a replay reads an earlier attempt as. A frame
 * without an id is not part of the run's log: it is delivered as it is (the notice excepted).
 *
 * @example
 * const sequence = new RunEventSequence('run-1', true, () => stats.duplicatesDropped++);
 * sequence.accept({ id: '1', data: '{"type":"RUN_STARTED","threadId":"t","runId":"run-1"}' }); // deliver, continue
 */
export class RunEventSequence {
  /** The id of the last event of the run's log accepted; 0 before the first. */
  lastEventId = 0;
  private started = false;
  private gapPending = false;

  /** @param onDuplicate called for each event received again and dropped. @default none */
  constructor(
    private readonly runId: string,
    private readonly retryInterrupted: boolean,
    private readonly onDuplicate: () => void = () => undefined,
  ) {}

  /**
   * Judges one frame.
   *
   * @throws InvalidStreamFrameError when the frame is not an AG-UI event; EventGapError on a repeated gap.
   */
  accept(frame: SseFrame): FrameVerdict {
    const event = parseStreamEvent(frame.data);
    const id =
      frame.id !== undefined && /^\d+$/.test(frame.id.trim()) ? Number(frame.id) : undefined;
    if (id !== undefined) {
      if (id <= this.lastEventId) {
        this.onDuplicate();
        return { action: 'continue', progressed: false };
      }
      if (id > this.lastEventId + 1) {
        if (this.gapPending) throw new EventGapError(this.runId, this.lastEventId, id);
        this.gapPending = true;
        return { action: 'gap', progressed: false };
      }
      this.lastEventId = id;
      this.gapPending = false;
    }
    if (isHandoverNotice(event)) return { action: 'handover', progressed: id !== undefined };
    if (event.type === EventType.RUN_STARTED) {
      if (this.started) return { action: 'continue', progressed: true };
      this.started = true;
    }
    if (this.retryInterrupted && isInterruption(event))
      return { action: 'interrupted', progressed: true };
    // What a replay reads an earlier attempt as: hidden, as the same events are when they arrive live.
    if (this.retryInterrupted && isAttemptNotice(event))
      return { action: 'continue', progressed: true };
    return {
      action: isTerminalEvent(event) ? 'finished' : 'continue',
      deliver: event,
      progressed: true,
    };
  }
}
