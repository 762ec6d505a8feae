import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `probe` until it returns a value other than `undefined`, failing after `timeoutMs`.
 * A probe that throws is retried: the service may not be listening yet. The last error is
 * kept for the timeout message, since that is usually the reason.
 */
export async function waitUntil<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`,
      );
    }
    await sleep(intervalMs);
  }
}

/** Settles with `promise`, or with `fallback` after `timeoutMs`; the timer never holds the process. */
export async function withDeadline<T, F>(
  promise: Promise<T>,
  timeoutMs: number,
  fallback: F,
): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Something that settles on its own, never rejecting, and settles soon once `abort()`ed. */
export interface Abortable<T> {
  done: Promise<T>;
  abort(): void;
}

/**
 * Each one's ending, in order; those still open after `timeoutMs` are aborted, so this always
 * settles. `inTime` says whether every one ended on its own before the deadline.
 *
 * @example
 * const { endings, inTime } = await endingsWithin(streams, 10_000);
 */
export async function endingsWithin<T>(
  pending: readonly Abortable<T>[],
  timeoutMs: number,
): Promise<{ endings: T[]; inTime: boolean }> {
  const endings = await withDeadline(Promise.all(pending.map((p) => p.done)), timeoutMs, undefined);
  if (endings) return { endings, inTime: true };
  pending.forEach((p) => p.abort());
  return { endings: await Promise.all(pending.map((p) => p.done)), inTime: false };
}
