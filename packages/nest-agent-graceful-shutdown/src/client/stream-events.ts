import { EventType, type BaseEvent } from '@ag-ui/core';
import { InvalidStreamFrameError } from './invalid-stream-frame.error.js';
import { RUN_INTERRUPTED_NOTICE, RUN_RESUMED_NOTICE } from '../streams/run-attempts.js';

/** The `value` of the `handover` notice: where the run's log stood when this connection ended. */
export interface HandoverNotice {
  threadId: string;
  runId: string;
  lastEventId: number;
}

/**
 * The AG-UI event in a frame's data.
 *
 * @throws InvalidStreamFrameError when the data is not JSON, not an object, or has no `type`.
 * @example
 * parseStreamEvent('{"type":"RUN_STARTED","threadId":"t","runId":"r"}'); // the event
 */
export function parseStreamEvent(data: string): BaseEvent {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw new InvalidStreamFrameError(data, 'not JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new InvalidStreamFrameError(data, 'not a JSON object');
  const type = (json as { type?: unknown }).type;
  if (typeof type !== 'string' || type === '')
    throw new InvalidStreamFrameError(data, 'no event type');
  return json as BaseEvent;
}

/**
 * Whether an event is the server's `handover` notice (`CUSTOM`, name `handover`): this connection
 * ends and the run goes on elsewhere.
 *
 * @example
 * isHandoverNotice({ type: 'CUSTOM', name: 'handover', value: { threadId, runId, lastEventId: 7 } }); // true
 */
export function isHandoverNotice(
  event: BaseEvent,
): event is BaseEvent & { name: 'handover'; value: HandoverNotice } {
  return event.type === EventType.CUSTOM && (event as { name?: unknown }).name === 'handover';
}

/** Whether an event ends the run: `RUN_FINISHED` or `RUN_ERROR`. */
export function isTerminalEvent(event: BaseEvent): boolean {
  return event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;
}

/** Whether an event is the `RUN_ERROR` of a run the server stopped for the client to send again (`RUN_INTERRUPTED`). */
export function isInterruption(event: BaseEvent): boolean {
  return (
    event.type === EventType.RUN_ERROR && (event as { code?: unknown }).code === 'RUN_INTERRUPTED'
  );
}

/**
 * Whether an event is how a replay or a join reads an earlier attempt of the run: its end
 * (`CUSTOM run_interrupted`) or the next attempt's start (`CUSTOM run_resumed`).
 */
export function isAttemptNotice(event: BaseEvent): boolean {
  const name = (event as { name?: unknown }).name;
  return (
    event.type === EventType.CUSTOM &&
    (name === RUN_INTERRUPTED_NOTICE || name === RUN_RESUMED_NOTICE)
  );
}
