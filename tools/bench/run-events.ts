import { drainSseFrames } from './sse-frames';
import { waitUntil } from './wait-until';

/** One AG-UI event as it arrived. */
export interface RunEvent {
  type: string;
  code?: string;
  [key: string]: unknown;
}

/** A run request whose AG-UI event stream is read in the background. */
export interface RunEvents {
  status: number;
  /** Events received so far. */
  events: RunEvent[];
  /** Resolves with the first event matching `predicate`; fails after `timeoutMs`. */
  waitFor(
    predicate: (event: RunEvent) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<RunEvent>;
  /** The terminal event (`RUN_FINISHED` or `RUN_ERROR`) once the stream has ended, if one came. */
  terminal(): Promise<RunEvent | undefined>;
}

/** POSTs a run as JSON to `url` and reads the answer's server-sent events as they arrive. */
export async function postRunEvents(
  url: string,
  headers: Record<string, string>,
  input: unknown,
): Promise<RunEvents> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(input),
  });
  return readRunEvents(response);
}

/** GETs a run's stream at `url` (a join) and reads its server-sent events as they arrive. */
export async function getRunEvents(
  url: string,
  headers: Record<string, string>,
): Promise<RunEvents> {
  return readRunEvents(await fetch(url, { headers: { ...headers, accept: 'text/event-stream' } }));
}

/** Reads the server-sent events of `response` in the background. */
function readRunEvents(response: Response): RunEvents {
  const events: RunEvent[] = [];
  const done = (async () => {
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(bytes, { stream: true });
        buffer = drainSseFrames(buffer, (data) => events.push(JSON.parse(data) as RunEvent));
      }
    } catch {
      // the server closed the connection: what arrived is kept
    }
  })();
  return {
    status: response.status,
    events,
    waitFor: (predicate, what, timeoutMs = 30_000) =>
      waitUntil(async () => events.find(predicate), what, timeoutMs),
    terminal: async () => {
      await done;
      return events.find((event) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR');
    },
  };
}

/** The AG-UI `RunAgentInput` of one user message. */
export function runInput(
  threadId: string,
  runId: string,
  message: { id: string; content: string },
): Record<string, unknown> {
  return {
    threadId,
    runId,
    state: {},
    tools: [],
    context: [],
    forwardedProps: {},
    messages: [{ ...message, role: 'user' }],
  };
}
