import type { SessionStore } from '../contracts/session-store.interface.js';
import type { SignalBus } from '../contracts/signal-bus.interface.js';

/** How often the store is asked whether the run ended, besides the run-ended notice, in milliseconds. */
const RUN_END_POLL_MS = 500;

/**
 * Resolves true once the run no longer runs (its end is durable: the run-ended notice came,
 * or the store says so), false after `timeoutMs` or once `signal` aborts (the caller gave up,
 * e.g. its stop could not be sent). Subscribes at once, so a caller that asks for the stop
 * after this call misses no notice; the store is read too, every half second, for a run that
 * ended before or whose notice was lost (a bus away, an instance that crashed). Every timer and
 * subscription ends with the wait.
 */
export function waitForRunEnd(
  deps: { signals: SignalBus; store: SessionStore },
  threadId: string,
  runId: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    let settled = false;
    const finish = (ended: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      unsubscribe();
      signal?.removeEventListener('abort', gaveUp);
      resolve(ended);
    };
    const gaveUp = () => finish(false);
    const unsubscribe = deps.signals.onRunEnded(threadId, runId, () => finish(true));
    const timer = setTimeout(gaveUp, timeoutMs);
    const check = () =>
      deps.store.findRun(threadId, runId).then(
        (run) => run?.status !== 'running' && finish(true),
        () => undefined,
      );
    const poll = setInterval(check, RUN_END_POLL_MS);
    signal?.addEventListener('abort', gaveUp);
    if (signal?.aborted) gaveUp();
    else void check();
  });
}
