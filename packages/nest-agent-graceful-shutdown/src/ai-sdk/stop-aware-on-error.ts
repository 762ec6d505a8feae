import { RunStoppedError } from '../errors/run-stopped.error.js';

/** An `onError` of `streamText` (AI SDK 6 and 7): told of each error of the stream; AI SDK 7 may read a retry request from its result. */
export type StreamErrorHandler = (event: { error: unknown }) => unknown;

/**
 * The `onError` the adapter gives `streamText`. Without one, the SDK `console.error`s every
 * error of the stream, and a stop reaches it as one: the `RunStoppedError` of a safe point, or
 * whatever an abort by the run's signal made the model call or a tool throw. A stop is not a
 * failure, so it is not passed on; any other error goes to the user's own `onError` (its
 * result returned, so a retry it asks for still works), or, without one, nowhere here: the
 * run fails with it and the run's end reports it once.
 */
export function stopAwareOnError(
  signal: AbortSignal,
  userOnError?: StreamErrorHandler,
): StreamErrorHandler {
  return (event) => (isStop(event.error, signal) ? undefined : userOnError?.(event));
}

/** A safe point's stop, or anything thrown once the run's signal was aborted (by a cancel, a shutdown, a lost lease). */
function isStop(error: unknown, signal: AbortSignal): boolean {
  return (
    signal.aborted ||
    error instanceof RunStoppedError ||
    (error instanceof Error && error.cause instanceof RunStoppedError)
  );
}
