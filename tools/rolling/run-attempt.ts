import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { drainSseFrames } from '../bench/sse-frames';
import { StreamReader, type StreamEvent } from './stream-reader';

/** How one run request ended, as a client sees it. */
export type AttemptOutcome =
  /** `RUN_FINISHED`. */
  | { kind: 'finished' }
  /** `RUN_ERROR` with `code`: `RUN_INTERRUPTED` is retried, anything else is a failure. */
  | { kind: 'run-error'; code: string }
  /** The stream ended without a terminal event: the instance died under it. */
  | { kind: 'cut-off' }
  /** No stream: an HTTP error answer. */
  | { kind: 'refused'; status: number; code?: string; retryAfterSeconds?: number }
  /** The request never got an answer (connection refused or reset). */
  | { kind: 'connection-error'; error: string };

export interface AttemptResult {
  outcome: AttemptOutcome;
  /** Whether `RUN_STARTED` arrived. */
  started: boolean;
  /**
   * Ids of the messages the stream reported finished: assistant messages whose reasoning step
   * finished, and tool results. The service saves each before it reports it, so every one
   * must be in the thread's history, whatever happens to the instance afterwards.
   */
  finishedMessageIds: string[];
  /** `performance.now()` when the first event of the stream arrived; undefined without one. */
  firstEventAtMs?: number;
  /** `performance.now()` when the request ended: its stream closed, or its answer or error came. */
  endedAtMs: number;
}

/**
 * POSTs one AG-UI run request with `fetch` (keep-alive, as a browser or SDK would) and reads
 * its event stream to the end. Never throws: every way a request can end is an
 * {@link AttemptOutcome}.
 */
export async function attemptRun(
  baseUrl: string,
  token: string,
  threadId: string,
  message: { id: string; content: string },
  timeoutMs: number,
): Promise<AttemptResult> {
  const reader = new StreamReader();
  let firstEventAtMs: number | undefined;
  const result = (outcome: AttemptOutcome): AttemptResult => ({
    outcome,
    started: reader.started,
    finishedMessageIds: reader.finished,
    firstEventAtMs,
    endedAtMs: performance.now(),
  });
  const input = {
    threadId,
    runId: randomUUID(),
    messages: [{ ...message, role: 'user' }],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  };
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/v1/runs`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return result({ kind: 'connection-error', error: String((error as Error).cause ?? error) });
  }
  if (response.status !== 200 || !response.body) {
    const body = (await response.json().catch(() => ({}))) as { code?: string };
    const retryAfter = response.headers.get('retry-after');
    return result({
      kind: 'refused',
      status: response.status,
      code: body.code,
      retryAfterSeconds: retryAfter === null ? undefined : Number(retryAfter),
    });
  }
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body) {
      buffer = drainSseFrames(
        buffer + decoder.decode(chunk as Uint8Array, { stream: true }),
        (data) => {
          firstEventAtMs ??= performance.now();
          reader.read(JSON.parse(data) as StreamEvent);
        },
      );
    }
  } catch {
    // The connection broke mid-stream: what arrived before counts, the rest is a cut-off.
  }
  return result(reader.terminal ?? { kind: 'cut-off' });
}
