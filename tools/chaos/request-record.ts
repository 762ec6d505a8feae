import { performance } from 'node:perf_hooks';

/** One HTTP request a user made, and how it was answered. */
export interface RecordedRequest {
  user: string;
  /** The user's turn the request belonged to (1, 2, …); 0 for a cancel sent by the schedule outside a turn. */
  turn: number;
  method: string;
  /** The URL's path and query. */
  path: string;
  /** `performance.now()` when it was sent. */
  atMs: number;
  /** The HTTP status; undefined when no answer came (`error` says why). */
  status?: number;
  /** The error body's `code`, for a non-2xx answer that had one. */
  code?: string;
  /** The `Retry-After` header, as sent. */
  retryAfter?: string;
  error?: string;
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * A `fetch` that records every request it makes into `into` (status, error code, `Retry-After`,
 * or the network error) and passes the answer through untouched. `turn` names the turn at the
 * moment of the request.
 *
 * @example
 * const fetch = recordingFetch('user-1', () => turn, requests);
 */
export function recordingFetch(user: string, turn: () => number, into: RecordedRequest[]): Fetch {
  return async (url, init) => {
    const record: RecordedRequest = {
      user,
      turn: turn(),
      method: init.method ?? 'GET',
      path: new URL(url).pathname + new URL(url).search,
      atMs: performance.now(),
    };
    into.push(record);
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (error) {
      record.error = String((error as Error).cause ?? error);
      throw error;
    }
    record.status = response.status;
    const retryAfter = response.headers.get('retry-after');
    if (retryAfter !== null) record.retryAfter = retryAfter;
    if (!response.ok) {
      const text = await response
        .clone()
        .text()
        .catch(() => '');
      const code = /"code"\s*:\s*"([A-Z_]+)"/.exec(text)?.[1];
      if (code) record.code = code;
    }
    return response;
  };
}
