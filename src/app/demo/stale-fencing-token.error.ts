/**
 * A demo tool call presented a fencing token lower than one its thread's ledger already saw:
 * it comes from a run attempt that lost its lease, so its effect is refused.
 */
export class StaleFencingTokenError extends Error {
  override readonly name = 'StaleFencingTokenError';
  readonly code = 'STALE_FENCING_TOKEN';

  constructor(
    readonly threadId: string,
    readonly staleToken: number,
    readonly currentToken: number,
  ) {
    super(
      `effect refused: fencing token ${staleToken} is older than ${currentToken} on thread ${threadId}; a newer attempt of the run holds it`,
    );
  }
}
