/**
 * Thrown by `abortable` when the signal fires before the work settles. It carries no stack:
 * a shutdown aborts the calls of thousands of runs at once, where each call stood says
 * nothing the run's outcome does not, and capturing it was most of an abort's cost.
 */
export class CallAbortedError extends Error {
  override readonly name = 'CallAbortedError';
  constructor() {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super('the call was aborted because the run is stopping');
    Error.stackTraceLimit = limit;
  }
}

/**
 * Settles with `work`, or rejects with `CallAbortedError` as soon as `signal` aborts, so a
 * model or tool that ignores its signal cannot hold the run past a stop.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(new CallAbortedError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CallAbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? new CallAbortedError() : error);
      },
    );
  });
}
