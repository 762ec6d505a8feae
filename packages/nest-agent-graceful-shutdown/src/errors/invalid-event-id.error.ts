import { AgentServiceError } from './agent-service.error.js';

/** A join asked for the events after an id the run's log never reached: no client can have seen it. */
export class InvalidEventIdError extends AgentServiceError {
  override readonly name = 'InvalidEventIdError';

  constructor(
    readonly threadId: string,
    readonly runId: string,
    lastEventId: number,
    lastLoggedId: number,
  ) {
    super(
      'INVALID_EVENT_ID',
      400,
      `Last-Event-ID: ${lastEventId} is beyond the end of run ${runId}'s log (its last event is ${lastLoggedId}); send an id the stream gave you, or none to start from the first event`,
    );
  }
}
