import { performance } from 'node:perf_hooks';
import { openSseRequest, type SseRequest } from './sse-request';
import type { SpawnedService } from './spawned-service';

/** How the first connection of a run ended. */
export type FirstEnding = 'handover' | 'interrupted' | 'finished' | 'dropped';

/** What one client saw of its run, across the interruption. */
export interface ContinuedRun {
  threadId: string;
  runId: string;
  firstEnding?: FirstEnding;
  /** When the notice of the interruption arrived (`performance.now()` in this process). */
  noticeAtMs?: number;
  /** From the notice of the interruption (handover or `RUN_INTERRUPTED`) to the continuation's first event, in ms. */
  gapMs?: number;
  /** Every SSE id received, in order, over both connections. */
  ids: number[];
  /** The last terminal event received. */
  terminal?: { type: string; code?: string };
  /** What went wrong on either connection, if anything. */
  errors: string[];
}

/** A client following its run, in the background. */
export interface ContinuedRunClient {
  readonly record: ContinuedRun;
  /** `TOOL_CALL_RESULT` events received so far: how far the run has got. */
  readonly toolResults: number;
  /** Settles (never rejects) when the continuation has ended, or the first connection ended without one. */
  done: Promise<ContinuedRun>;
  abort(): void;
}

interface StreamEvent {
  type: string;
  code?: string;
  name?: string;
}

const isTerminal = (event: StreamEvent) =>
  event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR';

/**
 * POSTs `input` to the holder and follows the run as a client does when the holder stops it:
 * at a `handover` notice it joins the run on the survivor with `Last-Event-ID` (the last id it
 * received); at `RUN_ERROR` `RUN_INTERRUPTED` it sends the same POST to the survivor. Either
 * is sent the moment the notice is parsed, and the gap ends at the continuation's first event.
 */
export function followAcrossInterruption(
  holder: SpawnedService,
  survivor: SpawnedService,
  token: string,
  input: { threadId: string; runId: string },
): ContinuedRunClient {
  const record: ContinuedRun = {
    threadId: input.threadId,
    runId: input.runId,
    ids: [],
    errors: [],
  };
  const requests: SseRequest[] = [];
  let toolResults = 0;
  let continuation: Promise<unknown> | undefined;

  const parse = (data: string): StreamEvent | undefined => {
    try {
      return JSON.parse(data) as StreamEvent;
    } catch {
      record.errors.push(`malformed event: ${data.slice(0, 200)}`);
      return undefined;
    }
  };
  const onContinued = (data: string, id?: string) => {
    const at = performance.now();
    const event = parse(data);
    if (!event) return;
    if (id === undefined)
      return void record.errors.push(`the continuation got a second notice: ${data.slice(0, 200)}`);
    record.gapMs ??= at - (record.noticeAtMs ?? at);
    record.ids.push(Number(id));
    if (isTerminal(event)) record.terminal = { type: event.type, code: event.code };
  };
  const continueOn = (ending: FirstEnding) => {
    record.noticeAtMs = performance.now();
    record.firstEnding = ending;
    const { threadId, runId } = input;
    const request =
      ending === 'handover'
        ? openSseRequest(
            `${survivor.baseUrl}/v1/runs/${threadId}/stream?runId=${runId}`,
            {
              method: 'GET',
              agent: survivor.agent,
              token,
              headers: { 'last-event-id': String(record.ids.at(-1) ?? 0) },
            },
            onContinued,
          )
        : openSseRequest(
            `${survivor.baseUrl}/v1/runs`,
            { method: 'POST', agent: survivor.agent, token, body: input },
            onContinued,
          );
    requests.push(request);
    continuation = request.done.then(
      ({ error }) => error && record.errors.push(`continuation: ${error}`),
    );
  };
  const onFirst = (data: string, id?: string) => {
    const event = parse(data);
    if (!event || record.firstEnding) return;
    if (id !== undefined) record.ids.push(Number(id));
    if (event.type === 'TOOL_CALL_RESULT') toolResults++;
    if (event.type === 'CUSTOM' && event.name === 'handover') continueOn('handover');
    else if (event.type === 'RUN_ERROR' && event.code === 'RUN_INTERRUPTED')
      continueOn('interrupted');
    else if (isTerminal(event)) {
      record.firstEnding = 'finished';
      record.terminal = { type: event.type, code: event.code };
    }
  };

  const first = openSseRequest(
    `${holder.baseUrl}/v1/runs`,
    { method: 'POST', agent: holder.agent, token, body: input },
    onFirst,
  );
  requests.push(first);
  const done = first.done.then(async ({ error }) => {
    if (error) record.errors.push(`first connection: ${error}`);
    record.firstEnding ??= 'dropped';
    await continuation;
    return record;
  });
  return {
    record,
    get toolResults() {
      return toolResults;
    },
    done,
    abort: () => requests.forEach((r) => r.abort()),
  };
}
