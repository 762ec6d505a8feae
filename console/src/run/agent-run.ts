import type { Message, RunAgentParameters } from '@ag-ui/client';
import { ResumableHttpAgent } from 'nest-agent-graceful-shutdown/client';
import type { AuthFetch } from '../api/auth-fetch';
import type { MessageView } from '../api/service-api';
import { newId } from './new-id';
import type { RunAction } from './run-view';

/** A run to start on a thread: a new user message, or the answers to its pending approvals. */
export interface AgentRunRequest {
  threadId: string;
  /** The thread's stored history, resent as AG-UI clients do (the service adds only new ids). */
  history: MessageView[];
  message?: string;
  resume?: RunAgentParameters['resume'];
  /** `interrupt` while a run of the thread is going: that run stops and this one follows (the user's stop-and-send). */
  multitask?: 'interrupt';
}

/** How long the page keeps trying to get a run's stream back (a server restart), in milliseconds. */
const RECONNECT_TIMEOUT_MS = 120_000;
/** The longest pause between two reconnect attempts, in milliseconds: a restarted server is found within it. */
const RECONNECT_MAX_DELAY_MS = 2_000;

/**
 * Starts a run with the package's resumable AG-UI client, which follows it to its end across
 * dropped connections, handovers and server restarts (re-joining with `Last-Event-ID`, resending
 * a run stopped by a shutdown). Every event and every reconnect goes to `dispatch`; the promise
 * settles when the run's stream has ended, and `abort()` stops following it (not the run).
 */
export function startAgentRun(
  fetch: AuthFetch,
  request: AgentRunRequest,
  dispatch: (action: RunAction) => void,
): { done: Promise<void>; abort(): void } {
  const message: Message[] = request.message
    ? [{ id: newId('msg'), role: 'user', content: request.message }]
    : [];
  const agent = new ResumableHttpAgent({
    url: new URL('/v1/runs', location.href).href,
    threadId: request.threadId,
    initialMessages: [...request.history.map(toAgUiMessage), ...message],
    fetch: (url, init) => fetch(url, init),
    reconnect: { timeoutMs: RECONNECT_TIMEOUT_MS, maxDelayMs: RECONNECT_MAX_DELAY_MS },
    onReconnect: ({ kind, attempt }) => dispatch({ type: 'reconnect', kind, attempt }),
    ...(request.multitask ? { multitask: request.multitask } : {}),
  });
  let terminal = false;
  // Once the page stops following the run, nothing of it reaches the view any more.
  let followed = true;
  const tell = (action: RunAction): void => {
    if (followed) dispatch(action);
  };
  tell({ type: 'start' });
  const done = agent
    .runAgent(
      { runId: newId('run'), ...(request.resume ? { resume: request.resume } : {}) },
      {
        onEvent: ({ event }) => {
          terminal ||= event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR';
          tell({ type: 'event', event: event as unknown as { type: string } });
        },
      },
    )
    .then(
      () => tell({ type: 'ended' }),
      // A RUN_ERROR (a stop) also rejects: its event already told what happened.
      (error: unknown) =>
        tell(
          terminal
            ? { type: 'ended' }
            : { type: 'failed', message: error instanceof Error ? error.message : String(error) },
        ),
    );
  return {
    done,
    abort: () => {
      followed = false;
      agent.abortRun();
    },
  };
}

/** A stored message as AG-UI sends it back. */
function toAgUiMessage(message: MessageView): Message {
  const base = { id: message.id, content: message.content };
  switch (message.role) {
    case 'assistant':
      return {
        ...base,
        role: 'assistant',
        ...(message.toolCalls ? { toolCalls: message.toolCalls } : {}),
      };
    case 'tool':
      return { ...base, role: 'tool', toolCallId: message.toolCallId ?? '' };
    default:
      return { ...base, role: message.role };
  }
}
