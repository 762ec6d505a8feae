import { AgentServiceError } from './agent-service.error.js';

/** What a malformed event id was, for the message: a number as it prints, a string quoted and cut short. */
function describe(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 32 ? `${value.slice(0, 32)}…` : value);
  return typeof value === 'number' || value === null ? String(value) : typeof value;
}

/**
 * A `Last-Event-ID` no client can have been given: not an event id at all (`NaN`, a negative
 * number, a fraction, past `Number.MAX_SAFE_INTEGER`, not a number), or an id beyond the end of
 * the run's log. The message starts with the field that carried it.
 */
export class InvalidEventIdError extends AgentServiceError {
  override readonly name = 'InvalidEventIdError';
  /** The field that carried the id: `Last-Event-ID`, or `lastEventId` as the services take it. */
  readonly field: string;
  /** The thread and run whose log the id is beyond; unset for a value that is no event id. */
  readonly threadId?: string;
  readonly runId?: string;

  /** An id beyond the end of the run's log: its last event is `lastLoggedId`. */
  constructor(threadId: string, runId: string, lastEventId: number, lastLoggedId: number);
  /** A value that is no event id, sent as `field`. */
  constructor(field: string, value: unknown);
  constructor(...args: [string, string, number, number] | [string, unknown]) {
    const field = args.length === 4 ? 'Last-Event-ID' : args[0];
    super(
      'INVALID_EVENT_ID',
      400,
      args.length === 4
        ? `${field}: ${args[2]} is beyond the end of run ${args[1]}'s log (its last event is ${args[3]}); send an id the stream gave you, or none to start from the first event`
        : `${field}: must be a non-negative integer, an event id of the run's stream (got ${describe(args[1])}); send an id the stream gave you, or none to start from the first event`,
    );
    this.field = field;
    if (args.length === 4) [this.threadId, this.runId] = args;
  }
}
