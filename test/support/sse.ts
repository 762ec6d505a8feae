import { waitFor } from './wait-for';

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
  waitForEvent(predicate: (event: AgUiEvent) => boolean, what: string, timeoutMs?: number): Promise<AgUiEvent>;
  /** The terminal event (RUN_FINISHED or RUN_ERROR), once the stream has ended. */
  terminal(): Promise<AgUiEvent | undefined>;
}

/** POSTs a run to the reference service and reads its SSE stream as it arrives. */
export function startRun(baseUrl: string, token: string, input: unknown): Promise<RunStream> {
  return postRun(`${baseUrl}/v1/runs`, { authorization: `Bearer ${token}` }, input);
}

/** POSTs a run to any endpoint that answers with an AG-UI event stream, and reads it as it arrives. */
export async function postRun(url: string, headers: Record<string, string>, input: unknown): Promise<RunStream> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(input),
  });
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
          for (const line of frame.split('\n')) {
            if (line.startsWith('id: ')) ids.push(line.slice(4));
            if (line.startsWith('data: ')) data += line.slice(6);
            if (line.startsWith(':')) comments.push(line);
          }
          if (data) events.push(JSON.parse(data) as AgUiEvent);
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
    waitForEvent: (predicate, what, timeoutMs = 15_000) => waitFor(() => events.find(predicate), what, timeoutMs),
    terminal: async () => (await done).find((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR'),
  };
}
