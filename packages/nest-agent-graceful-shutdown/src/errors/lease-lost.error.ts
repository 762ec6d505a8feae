/**
 * A run's write was refused because its thread's lease now belongs to a newer run (the
 * lease expired while this process was paused or cut off, and another instance took the
 * thread over). The run stops; the thread's state is the newer run's.
 */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
  readonly code = 'LEASE_LOST';

  constructor(
    readonly threadId: string,
    readonly runKey: string,
  ) {
    super(
      `run attempt ${runKey} no longer holds the lease of thread ${threadId}; a newer run owns it, so this write was refused`,
    );
  }
}
