import { performance } from 'node:perf_hooks';
import { drainSseFrames } from '../bench/sse-frames';

/** How one join of a thread's run stream ended. */
export interface JoinRecord {
  threadId: string;
  /** `performance.now()` when it was sent, and when it ended. */
  startedAtMs: number;
  endedAtMs: number;
  /** HTTP status; 0 when no answer came. */
  status: number;
  /** Events with an id received. */
  events: number;
  /** Whether the ids received were consecutive, from the one after `lastEventId`. */
  idsInOrder: boolean;
  /** `terminal`: the log's `RUN_FINISHED` or `RUN_ERROR`; `handover`: the instance's notice at its shutdown; `cut`: the stream ended without either; `refused`: not 200. */
  ending: 'terminal' | 'handover' | 'cut' | 'refused';
}

const TERMINAL = new Set(['RUN_FINISHED', 'RUN_ERROR']);

/** Which run to join, and from where. */
export interface JoinTarget {
  threadId: string;
  /** The run; default: the thread's active run, else its last one. */
  runId?: string;
  /** Replay the events after this id; default: the service's (the whole log). */
  lastEventId?: number;
}

/**
 * `GET /v1/runs/{threadId}/stream`: joins a run (by default the thread's active run, else its
 * last one) and reads it to its end, as a second viewer of a run would. Never rejects; gives up
 * after `timeoutMs` (then `cut`).
 */
export async function joinStream(
  baseUrl: string,
  target: JoinTarget,
  token: string,
  timeoutMs: number,
): Promise<JoinRecord> {
  const { threadId } = target;
  const record: JoinRecord = {
    threadId,
    startedAtMs: performance.now(),
    endedAtMs: 0,
    status: 0,
    events: 0,
    idsInOrder: true,
    ending: 'cut',
  };
  const query = target.runId === undefined ? '' : `?runId=${encodeURIComponent(target.runId)}`;
  const from =
    target.lastEventId === undefined ? {} : { 'last-event-id': String(target.lastEventId) };
  let lastId = target.lastEventId;
  try {
    const response = await fetch(
      `${baseUrl}/v1/runs/${encodeURIComponent(threadId)}/stream${query}`,
      {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...from },
        signal: AbortSignal.timeout(timeoutMs),
      },
    );
    record.status = response.status;
    if (response.status !== 200 || !response.body) {
      record.ending = 'refused';
      await response.body?.cancel();
      return record;
    }
    const decoder = new TextDecoder();
    let buffer = '';
    const onData = (data: string, id?: string) => {
      const event = JSON.parse(data) as { type?: string; name?: string };
      if (id !== undefined) {
        record.events++;
        if (lastId !== undefined && Number(id) !== lastId + 1) record.idsInOrder = false;
        lastId = Number(id);
      }
      // The last event decides: a resumed run's log goes on after an attempt's `RUN_INTERRUPTED`.
      if (TERMINAL.has(event.type ?? '')) record.ending = 'terminal';
      else if (event.type === 'CUSTOM' && event.name === 'handover') record.ending = 'handover';
      else record.ending = 'cut';
    };
    for await (const chunk of response.body)
      buffer = drainSseFrames(
        buffer + decoder.decode(chunk as Uint8Array, { stream: true }),
        onData,
      );
  } catch {
    // A reset, a refused connection or the deadline: whatever was read decides the ending.
  } finally {
    record.endedAtMs = performance.now();
  }
  return record;
}
