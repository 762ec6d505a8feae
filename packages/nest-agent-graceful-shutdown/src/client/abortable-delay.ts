/**
 * Waits `ms` milliseconds, or rejects with the signal's reason as soon as it is aborted; the
 * timer is cleared either way, so nothing is left pending.
 *
 * @example
 * await abortableDelay(250, controller.signal);
 */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
