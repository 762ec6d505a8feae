/**
 * A frame of a run's stream was not an AG-UI event (not JSON, not an object, no `type`).
 *
 * @example
 * if (error instanceof InvalidStreamFrameError) console.error(error.data);
 */
export class InvalidStreamFrameError extends Error {
  override readonly name = 'InvalidStreamFrameError';
  readonly code = 'INVALID_STREAM_FRAME';

  /** @param data the frame's data (its first 200 characters are in the message). */
  constructor(
    readonly data: string,
    reason: string,
  ) {
    super(`a frame of the run's stream is not an AG-UI event (${reason}): ${data.slice(0, 200)}`);
  }
}
