import { setTimeout as sleep } from 'node:timers/promises';

/** `GET /v1/threads/{threadId}`, as far as a user's client reads it. */
export interface ThreadStatus {
  status: 'idle' | 'running' | 'interrupted' | 'awaiting_approval';
  lastRun: { runId: string; status: string; stopReason: string | null } | null;
  interrupt: { reason: string; pendingToolCalls?: { id: string }[] } | null;
}

/** How long one status read may take, in ms. */
const READ_TIMEOUT_MS = 5_000;
/** Between two reads while the thread still runs, in ms. */
const POLL_MS = 300;

/** What a thread no run was ever admitted on reads as: idle, without a run. */
const NEVER_ADMITTED: ThreadStatus = { status: 'idle', lastRun: null, interrupt: null };

/**
 * Reads the thread's status until it is not `running` (its run ended somewhere, or was saved as
 * interrupted) and returns it (an unknown thread reads idle, without a run); undefined after `timeoutMs`. Failed reads (an instance going
 * away, the store restarting) are retried until then.
 */
export async function settledThread(
  fetcher: typeof fetch,
  url: string,
  token: string,
  timeoutMs: number,
): Promise<ThreadStatus | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const thread = await fetcher(url, {
      headers: { authorization: `Bearer ${token}`, connection: 'close' },
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    })
      .then(async (response) => {
        if (response.status === 404) return NEVER_ADMITTED;
        return response.status === 200 ? ((await response.json()) as ThreadStatus) : undefined;
      })
      .catch(() => undefined);
    if (thread && thread.status !== 'running') return thread;
    await sleep(POLL_MS);
  }
  return undefined;
}

/** The interrupt ids of a thread waiting for approval, one per pending tool call (the service names them `approve:<toolCallId>`). */
export function pendingInterrupts(thread: ThreadStatus): string[] {
  return (thread.interrupt?.pendingToolCalls ?? []).map((call) => `approve:${call.id}`);
}
