import { AgentServiceError } from './agent-service.error.js';

/**
 * The events a join asked for are no longer kept: the run's log was evicted after its
 * retention time (`STREAM_EXPIRED`), or lost part of itself in an outage of its store
 * (`STREAM_INCOMPLETE`). The thread's messages still hold the run's durable history.
 */
export class StreamGoneError extends AgentServiceError {
  override readonly name = 'StreamGoneError';

  constructor(
    readonly threadId: string,
    readonly runId: string,
    kind: 'expired' | 'incomplete',
    detail = '',
  ) {
    super(
      kind === 'expired' ? 'STREAM_EXPIRED' : 'STREAM_INCOMPLETE',
      410,
      kind === 'expired'
        ? `the event log of run ${runId} is no longer kept; read GET /v1/threads/${threadId}/messages for its history`
        : `the event log of run ${runId} lost events${detail ? ` (${detail})` : ''}; read GET /v1/threads/${threadId}/messages for its history`,
    );
  }
}
