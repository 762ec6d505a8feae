import { waitFor } from 'dev-services';

export interface AgUiEvent {
  type: string;
  [key: string]: any;
}

/** A run request whose SSE stream is read in the background. */
export interface RunStream {
  status: number;
  headers: Headers;
  /** Events received so far. */
  events: AgUiEvent[];
  /** SSE ids received so far. */
  ids: string[];
  /** Comment lines (`: …`, heartbeats) received so far. */
  comments: string[];
  /** Resolves with all events when the stream ends. */
  done: Promise<AgUiEvent[]>;
  /** The JSON body, when the request was refused. */
  error?: any;
  /** Resolves with the first event matching `predicate`. */
  waitForEvent(
    predicate: (event: AgUiEvent) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<AgUiEvent>;
  /** The terminal event (RUN_FINISHED or RUN_ERROR), once the stream has ended. */
  terminal(): Promise<AgUiEvent | undefined>;
  /** Cuts the connection from the client's side, as a dropped network would. */
  cut(): void;
  /** Each event with its SSE id (undefined for a notice without one), in order. */
  frames: Array<{ id?: number; event: AgUiEvent }>;
}

/** POSTs a run to the reference service and reads its SSE stream as it arrives. */
export function startRun(baseUrl: string, token: string, input: unknown): Promise<RunStream> {
  return postRun(`${baseUrl}/v1/runs`, { authorization: `Bearer ${token}` }, input);
}

/** POSTs a run to any endpoint that answers with an AG-UI event stream, and reads it as it arrives. */
export function postRun(
  url: string,
  headers: Record<string, string>,
  input: unknown,
): Promise<RunStream> {
  return openStream(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(input),
  });
}

/** Joins a run's stream (`GET /v1/runs/{threadId}/stream`), after `lastEventId` given as the header (default) or the query. */
export function joinRun(
  baseUrl: string,
  token: string,
  threadId: string,
  options: { runId?: string; lastEventId?: number; as?: 'header' | 'query' } = {},
): Promise<RunStream> {
  const query = new URLSearchParams();
  if (options.runId) query.set('runId', options.runId);
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    accept: 'text/event-stream',
  };
  if (options.lastEventId !== undefined) {
    if (options.as === 'query') query.set('lastEventId', String(options.lastEventId));
    else headers['last-event-id'] = String(options.lastEventId);
  }
  const search = query.size ? `?${query}` : '';
  return openStream(`${baseUrl}/v1/runs/${threadId}/stream${search}`, { headers });
}

async function openStream(url: string, init: RequestInit): Promise<RunStream> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  const cut = () => controller.abort();
  const frames: Array<{ id?: number; event: AgUiEvent }> = [];
  const events: AgUiEvent[] = [];
  const ids: string[] = [];
  const comments: string[] = [];
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const text = await response.text();
    const error = text ? JSON.parse(text) : undefined;
    return {
      status: response.status,
      headers: response.headers,
      events,
      ids,
      comments,
      error,
      done: Promise.resolve(events),
      waitForEvent: () => Promise.reject(new Error(`run refused with ${response.status}`)),
      terminal: async () => undefined,
      cut,
      frames,
    };
  }
  const done = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let split: number;
        while ((split = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          let data = '';
          let id: string | undefined;
          for (const line of frame.split('\n')) {
            if (line.startsWith('id: ')) ids.push((id = line.slice(4)));
            if (line.startsWith('data: ')) data += line.slice(6);
            if (line.startsWith(':')) comments.push(line);
          }
          if (!data) continue;
          const event = JSON.parse(data) as AgUiEvent;
          events.push(event);
          frames.push({ id: id === undefined ? undefined : Number(id), event });
        }
      }
    } catch {
      // the server closed the connection; what arrived is kept
    }
    return events;
  })();
  return {
    status: response.status,
    headers: response.headers,
    events,
    ids,
    comments,
    done,
    waitForEvent: (predicate, what, timeoutMs = 15_000) =>
      waitFor(() => events.find(predicate), what, timeoutMs),
    terminal: async () =>
      (await done).find((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR'),
    cut,
    frames,
  };
}

/** What a stream looks like as one AG-UI run: how many RUN_STARTED and terminal events, its first and last, and whether its ids are consecutive. */
export function runShape(frames: ReadonlyArray<{ id?: number; event: AgUiEvent }>) {
  const ids = frames.flatMap((frame) => (frame.id === undefined ? [] : [frame.id]));
  return {
    runStarted: frames.filter((frame) => frame.event.type === 'RUN_STARTED').length,
    terminal: frames.filter(
      (frame) => frame.event.type === 'RUN_FINISHED' || frame.event.type === 'RUN_ERROR',
    ).length,
    first: frames[0]?.event.type,
    last: frames.at(-1)?.event.type,
    consecutiveIds: ids.every((id, index) => id === ids[0] + index),
  };
}

/** The shape of a whole run that ended with RUN_FINISHED, as `runShape` gives it. */
export const FINISHED_RUN = {
  runStarted: 1,
  terminal: 1,
  first: 'RUN_STARTED',
  last: 'RUN_FINISHED',
  consecutiveIds: true,
};
