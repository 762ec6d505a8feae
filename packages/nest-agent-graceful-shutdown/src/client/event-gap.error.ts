/**
 * A run's stream skipped events (an id beyond the next one) twice in a row, even after a
 * re-join from the last event received, so the client cannot deliver the run without a hole.
 *
 * @example
 * if (error instanceof EventGapError) console.error(`events ${error.lastEventId + 1}..${error.receivedId - 1} are missing`);
 */
export class EventGapError extends Error {
  override readonly name = 'EventGapError';
  readonly code = 'EVENT_GAP';

  /** @param lastEventId the last event delivered; @param receivedId the id that came instead of the next one. */
  constructor(
    readonly runId: string,
    readonly lastEventId: number,
    readonly receivedId: number,
  ) {
    super(
      `the stream of run ${runId} skipped events: after event ${lastEventId} came event ${receivedId}, again after a re-join from event ${lastEventId}`,
    );
  }
}
