/**
 * The client could not get a run's stream back within `reconnect.timeoutMs`: every join or
 * resend failed (unreachable, 5xx, 503 with a `Retry-After` beyond the deadline) or delivered
 * nothing new. The run may still be going on the server; the thread says how it ended.
 *
 * @example
 * if (error instanceof ReconnectTimeoutError) console.warn(`lost run after event ${error.lastEventId}: ${error.lastFailure}`);
 */
export class ReconnectTimeoutError extends Error {
  override readonly name = 'ReconnectTimeoutError';
  readonly code = 'RECONNECT_TIMEOUT';

  /** @param timeoutMs the deadline, in milliseconds; @param lastEventId the last event received (0: none). */
  constructor(
    readonly runId: string,
    readonly timeoutMs: number,
    readonly lastEventId: number,
    readonly lastFailure: string,
  ) {
    super(
      `could not resume the stream of run ${runId} within ${timeoutMs} ms (last event id ${lastEventId}); last failure: ${lastFailure}`,
    );
  }
}
