import { request, type Agent } from 'node:http';
import { drainSseFrames } from './sse-frames';

/** How one client's run request ended. */
export interface RunStreamResult {
  /** HTTP status of the run request; 0 if no response arrived. */
  status: number;
  /** Events received. */
  events: number;
  /** The terminal event (`RUN_FINISHED` or `RUN_ERROR`) and its error code, if one arrived. */
  terminal?: { type: string; code?: string };
  /** A transport error or the refusal body, when the stream did not end normally. */
  error?: string;
}

/** One run request whose SSE stream is read in the background. */
export interface RunStream {
  /** Settles (never rejects) when the stream has ended, however it ended. */
  done: Promise<RunStreamResult>;
  /** Gives up on the stream: clean-up on error paths. */
  abort(): void;
}

/** The AG-UI `RunAgentInput` of a new thread with one user message. */
export function newThreadInput(threadId: string, runId: string, text: string): unknown {
  return {
    threadId,
    runId,
    messages: [{ id: `${threadId}-user-1`, role: 'user', content: text }],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  };
}

/**
 * POSTs a run and follows its event stream, keeping only what the benchmark checks: the
 * event count and the terminal event. Parsing is minimal on purpose so a thousand
 * streams cost the measuring process little.
 */
export function openRunStream(baseUrl: string, agent: Agent, token: string, input: unknown): RunStream {
  const body = JSON.stringify(input);
  const result: RunStreamResult = { status: 0, events: 0 };
  const req = request(`${baseUrl}/v1/runs`, {
    method: 'POST',
    agent,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      accept: 'text/event-stream',
    },
  });
  const done = new Promise<RunStreamResult>((resolve) => {
    const finish = (error?: string) => {
      if (error && !result.error) result.error = error;
      resolve(result);
    };
    req.on('error', (error) => finish(String(error)));
    req.on('response', (res) => {
      result.status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        // A refusal's JSON body stays in the buffer for the error message.
        if (result.status === 200) buffer = drainSseFrames(buffer, (data) => readEvent(data, result));
      });
      res.on('error', (error) => finish(String(error)));
      res.on('close', () => finish(result.status === 200 ? undefined : `HTTP ${result.status}: ${buffer}`));
    });
  });
  req.end(body);
  return { done, abort: () => req.destroy() };
}

function readEvent(data: string, result: RunStreamResult): void {
  result.events++;
  let event: { type: string; code?: string };
  try {
    event = JSON.parse(data) as { type: string; code?: string };
  } catch {
    result.error = `malformed event: ${data.slice(0, 200)}`;
    return;
  }
  if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') result.terminal = { type: event.type, code: event.code };
}
