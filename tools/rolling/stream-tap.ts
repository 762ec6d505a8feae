import { performance } from 'node:perf_hooks';
import { drainSseFrames } from '../bench/sse-frames';

/** One SSE frame with data, as it arrived on a connection. */
export interface TappedFrame {
  /** The frame's `id:` as a number; undefined for a frame without one (the `handover` notice). */
  id?: number;
  /** The AG-UI event's `type` (`CUSTOM` events: also their `name`). */
  type: string;
  name?: string;
  /** A `handover` notice's `value.lastEventId`: where the instance that sent it says the run's log stops. */
  noticeLastEventId?: number;
  /** What identifies the event in its run's sequence (see {@link eventFingerprint}). */
  fingerprint: string;
  /** `performance.now()` when the chunk that completed the frame was read. */
  atMs: number;
}

/** One HTTP request a client made, and what its answer carried. */
export interface TappedConnection {
  method: string;
  url: string;
  /** `performance.now()` when the request was sent. */
  openedAtMs: number;
  /** The HTTP status; undefined when no answer came (`error` says why). */
  status?: number;
  error?: string;
  /** The start of a refusal's body (a non-2xx answer), which names its `code`. */
  refusal?: string;
  frames: TappedFrame[];
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** The fields of an AG-UI event that tell it apart from the others of its run. */
interface EventKeys {
  type: string;
  name?: string;
  code?: string;
  messageId?: string;
  toolCallId?: string;
  stepName?: string;
  delta?: unknown;
  value?: { lastEventId?: number };
}

/**
 * What identifies an event in its run's sequence, so that the events a subscriber got can be
 * compared with the run's log: the type, then the message, tool call, step or code it is about,
 * and a text delta.
 *
 * @example
 * eventFingerprint({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm-1', delta: 'Hi' }); // 'TEXT_MESSAGE_CONTENT:m-1:Hi'
 */
export function eventFingerprint(event: EventKeys): string {
  const key =
    event.messageId ?? event.toolCallId ?? event.stepName ?? event.code ?? event.name ?? '';
  return `${event.type}:${key}${typeof event.delta === 'string' ? `:${event.delta}` : ''}`;
}

/** The frame's event; a frame that is not JSON is recorded as `(not JSON)`, left for the client to refuse. */
function parseEvent(data: string): EventKeys {
  try {
    return JSON.parse(data) as EventKeys;
  } catch {
    return { type: '(not JSON)' };
  }
}

/** The record of one frame's data and `id:`, arriving at `atMs`. */
function tappedFrame(data: string, id: string | undefined, atMs: number): TappedFrame {
  const event = parseEvent(data);
  const frame: TappedFrame = {
    id: id === undefined ? undefined : Number(id),
    type: event.type,
    name: event.name,
    fingerprint: eventFingerprint(event),
    atMs,
  };
  if (event.name === 'handover' && typeof event.value?.lastEventId === 'number')
    frame.noticeLastEventId = event.value.lastEventId;
  return frame;
}

/**
 * A `fetch` for an AG-UI client that records, per request, every event-stream frame the client
 * reads, with its SSE `id:` and the time it arrived: the bytes pass through unchanged (so the
 * client sees exactly what the server sent) and are parsed on the way. `onConnection` is called
 * once per request, before its first frame, with the record it then fills in.
 *
 * @example
 * const agent = new ResumableHttpAgent({ url, fetch: tappingFetch((connection) => trace.connections.push(connection)) });
 */
export function tappingFetch(
  onConnection: (connection: TappedConnection) => void,
  base: Fetch = fetch,
): Fetch {
  return async (url, init) => {
    const connection: TappedConnection = {
      method: init.method ?? 'GET',
      url,
      openedAtMs: performance.now(),
      frames: [],
    };
    onConnection(connection);
    let response: Response;
    try {
      response = await base(url, init);
    } catch (error) {
      connection.error = String((error as Error).cause ?? error);
      throw error;
    }
    connection.status = response.status;
    if (!response.ok)
      connection.refusal = (await response.clone().text().catch(String)).slice(0, 300);
    if (
      !response.body ||
      !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')
    )
      return response;
    const decoder = new TextDecoder();
    let buffer = '';
    const tap = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const atMs = performance.now();
        buffer = drainSseFrames(buffer + decoder.decode(chunk, { stream: true }), (data, id) =>
          connection.frames.push(tappedFrame(data, id, atMs)),
        );
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(tap), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
