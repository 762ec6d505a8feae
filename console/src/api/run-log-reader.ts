import type { BaseEvent } from '@ag-ui/client';
import type { AuthFetch } from './auth-fetch';

/**
 * Reads a run's event log from its start (`GET /v1/runs/{threadId}/stream?runId=`), handing
 * each AG-UI event to `onEvent` as it arrives, until the run's terminal event, the end of the
 * stream or `signal`. For a run this page did not start: one that is running, or one that
 * paused for approval (its last event names the interrupts to answer).
 */
export async function readRunLog(
  fetch: AuthFetch,
  threadId: string,
  runId: string,
  onEvent: (event: BaseEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const url = `/v1/runs/${encodeURIComponent(threadId)}/stream?runId=${encodeURIComponent(runId)}`;
  const response = await fetch(url, { headers: { Accept: 'text/event-stream' }, signal });
  if (!response.ok || !response.body)
    throw new Error(`the run's stream answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        const event = JSON.parse(data) as BaseEvent;
        onEvent(event);
        if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') return;
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
