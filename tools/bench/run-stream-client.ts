import type { Agent } from 'node:http';
import { openSseRequest, type SseRequest } from './sse-request';

/** How one client's run request ended. */
export interface RunStreamResult {
  /** HTTP status of the run request; 0 if no response arrived. */
  status: number;
  /** Events received. */
  events: number;
  /** The terminal event (`RUN_FINISHED` or `RUN_ERROR`) and its error code, if one arrived. */
  terminal?: { type: string; code?: string };
  /** True when the stream ended with the `handover` notice (`RESUME_MODE=auto`). */
  handedOver?: boolean;
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
export function newThreadInput(
  threadId: string,
  runId: string,
  text: string,
): { threadId: string; runId: string } & Record<string, unknown> {
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
 * streams cost the measuring process little. A refusal that asks to come back (503 or 429
 * with `Retry-After`, e.g. a store pool busy during a burst of starts) is sent again after
 * that delay, up to `retries` times, as a client following the contract would.
 */
export function openRunStream(
  baseUrl: string,
  agent: Agent,
  token: string,
  input: unknown,
  retries = 0,
): RunStream {
  const result: RunStreamResult = { status: 0, events: 0 };
  let request: SseRequest | undefined;
  let aborted = false;
  let wake: (() => void) | undefined;
  const attempt = async (): Promise<RunStreamResult> => {
    for (let left = retries; ; left--) {
      request = openSseRequest(
        `${baseUrl}/v1/runs`,
        { method: 'POST', agent, token, body: input },
        (data) => readEvent(data, result),
      );
      const { status, error, retryAfterSeconds } = await request.done;
      const retry = !aborted && left > 0 && retryAfterSeconds !== undefined && result.events === 0;
      if (retry)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, retryAfterSeconds * 1_000);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      if (!retry || aborted) {
        result.status = status;
        if (error && !result.error) result.error = error;
        return result;
      }
    }
  };
  const done = attempt();
  return {
    done,
    abort: () => {
      aborted = true;
      wake?.();
      request?.abort();
    },
  };
}

function readEvent(data: string, result: RunStreamResult): void {
  result.events++;
  let event: { type: string; code?: string; name?: string };
  try {
    event = JSON.parse(data) as { type: string; code?: string; name?: string };
  } catch {
    result.error = `malformed event: ${data.slice(0, 200)}`;
    return;
  }
  if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR')
    result.terminal = { type: event.type, code: event.code };
  if (event.type === 'CUSTOM' && event.name === 'handover') result.handedOver = true;
}
