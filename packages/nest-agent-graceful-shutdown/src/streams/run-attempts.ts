import { EventType, type BaseEvent } from '@ag-ui/core';
import type { LoggedEvent } from '../contracts/run-event-log.interface.js';
import { isTerminal } from './stream-shape.js';

/** The `CUSTOM` event an earlier attempt's terminal event reads as, once a later attempt continued the run. */
export const RUN_INTERRUPTED_NOTICE = 'run_interrupted';
/** The `CUSTOM` event a later attempt's `RUN_STARTED` reads as: the run's sequence started at event 1. */
export const RUN_RESUMED_NOTICE = 'run_resumed';

/**
 * A run's log holds every attempt: an attempt stopped for its client to retry ends with its own
 * terminal event (`RUN_ERROR` `RUN_INTERRUPTED`), and the retry starts with its own
 * `RUN_STARTED`. Read as it is, the log would end at the first attempt's end, and a client that
 * replays or joins the run would be told to retry forever. So every reader of the log reads the
 * run as one AG-UI sequence: one `RUN_STARTED` (event 1), then, under their own ids, an ended
 * attempt's terminal event as `CUSTOM run_interrupted` and the next attempt's `RUN_STARTED` as
 * `CUSTOM run_resumed`, and the run's current terminal event last. Ids stay consecutive.
 *
 * @param continued whether the log holds an event after `entry`: a terminal event is the run's
 * end only when nothing follows it.
 * @example
 * readAsOneRun({ id: 9, event: { type: 'RUN_ERROR', code: 'RUN_INTERRUPTED', message } }, true);
 * // { id: 9, event: { type: 'CUSTOM', name: 'run_interrupted', value: { code: 'RUN_INTERRUPTED', message } } }
 */
export function readAsOneRun(entry: LoggedEvent, continued: boolean): LoggedEvent {
  if (entry.event.type === EventType.RUN_STARTED && entry.id > 1)
    return { id: entry.id, event: resumedNotice(entry.event) };
  if (continued && isTerminal(entry.event))
    return { id: entry.id, event: interruptedNotice(entry.event) };
  return entry;
}

/** An ended attempt's terminal event, as a non-terminal notice keeping its code and message. */
function interruptedNotice(event: BaseEvent): BaseEvent {
  const { code, message } = event as BaseEvent & { code?: string; message?: string };
  return {
    type: EventType.CUSTOM,
    name: RUN_INTERRUPTED_NOTICE,
    value: { code: code ?? null, message: message ?? null },
  } as BaseEvent;
}

function resumedNotice(event: BaseEvent): BaseEvent {
  const { threadId, runId } = event as BaseEvent & { threadId?: string; runId?: string };
  return {
    type: EventType.CUSTOM,
    name: RUN_RESUMED_NOTICE,
    value: { threadId, runId },
  } as BaseEvent;
}
