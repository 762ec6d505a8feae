/** One AG-UI event of a run's stream, as far as the proof reads it. */
export interface RunEvent {
  type: string;
  code?: string;
}

/** A run request whose event stream is read in the background. */
export interface RunStream {
  /** The events so far, in order. */
  readonly events: RunEvent[];
  /** The terminal event (`RUN_FINISHED` or `RUN_ERROR`), or undefined when the stream ended without one. */
  readonly terminal: Promise<RunEvent | undefined>;
}

/**
 * POSTs an AG-UI `RunAgentInput` to `/v1/runs` and reads its server-sent events as they come.
 * Throws when the service does not answer 200.
 */
export async function postRun(baseUrl: string, token: string, input: unknown): Promise<RunStream> {
  const response = await fetch(`${baseUrl}/v1/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(input),
  });
  if (response.status !== 200 || !response.body) throw new Error(`POST /v1/runs answered ${response.status}: ${await response.text()}`);
  const events: RunEvent[] = [];
  const body = response.body;
  const terminal = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('');
          buffer = buffer.slice(end + 2);
          if (!data) continue;
          const event = JSON.parse(data) as RunEvent;
          events.push(event);
          if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') return event;
        }
      }
    } catch {
      // The connection dropped with the container: no terminal event.
    }
    return undefined;
  })();
  return { events, terminal };
}

/** The AG-UI input of a run of `threadId` with one user message. */
export function runInput(threadId: string, runId: string): Record<string, unknown> {
  return { threadId, runId, messages: [{ id: `${threadId}-m1`, role: 'user', content: 'go' }], tools: [], context: [], state: {}, forwardedProps: {} };
}
