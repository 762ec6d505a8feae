/**
 * A contiguous append to a run's event log was refused because the log ends before the
 * batch's first event: its store lost the events after `lastId` (a Redis failover that dropped
 * writes not yet replicated, a restart without persistence). Nothing was stored; the writer
 * appends the missing events first, when it still has them.
 */
export class EventLogGapError extends Error {
  override readonly name = 'EventLogGapError';
  readonly code = 'EVENT_LOG_GAP';

  constructor(
    readonly threadId: string,
    readonly runId: string,
    /** The log's last event id (0: the log is empty or gone). */
    readonly lastId: number,
  ) {
    super(
      `the event log of run ${runId} on thread ${threadId} ends at event ${lastId}, before the events appended; nothing was stored`,
    );
  }
}
