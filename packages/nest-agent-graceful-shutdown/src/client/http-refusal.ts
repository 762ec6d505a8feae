/** A non-2xx answer of the service: `{ statusCode, code, message }` and its `Retry-After`. */
export interface HttpRefusal {
  status: number;
  /** The body's `code` (`SHUTTING_DOWN`, `RUN_IN_PROGRESS`, …), when it had one. */
  code?: string;
  /** The body's `message`, or its text when it was not the service's JSON. */
  message: string;
  /** The `Retry-After` header, in milliseconds; absent when there was none. */
  retryAfterMs?: number;
}

/**
 * Reads a refusal's body (bounded by the request's own signal) and `Retry-After`.
 *
 * @example
 * if (!response.ok) { const { status, code, retryAfterMs } = await readRefusal(response); }
 */
export async function readRefusal(response: Response): Promise<HttpRefusal> {
  const text = await response.text();
  let code: string | undefined;
  let message = text.slice(0, 500);
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof body.code === 'string') code = body.code;
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // not the service's JSON (a proxy's page): its text is the message
  }
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  return {
    status: response.status,
    ...(code ? { code } : {}),
    message,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/**
 * A `Retry-After` header in milliseconds from `now`: delay-seconds or an HTTP date; `undefined`
 * when absent or unreadable. A date in the past is 0.
 *
 * @example
 * parseRetryAfter('2'); // 2000
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Whether a refused request may be sent again: 408, 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}
