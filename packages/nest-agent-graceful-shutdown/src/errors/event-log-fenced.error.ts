/**
 * An append to a run's event log was refused because a newer attempt of the run claimed the
 * log (this process was paused or cut off past its lease, and another instance continued the
 * run). Nothing was stored; the log is the newer attempt's.
 */
export class EventLogFencedError extends Error {
  override readonly name = 'EventLogFencedError';
  readonly code = 'EVENT_LOG_FENCED';

  constructor(
    readonly threadId: string,
    readonly runId: string,
  ) {
    super(
      `the event log of run ${runId} on thread ${threadId} belongs to a newer attempt of the run; this attempt's events were not stored`,
    );
  }
}
