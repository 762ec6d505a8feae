import { useCallback, useEffect, useReducer, useRef, useState } from 'preact/hooks';
import type { AuthFetch } from '../api/auth-fetch';
import { readRunLog } from '../api/run-log-reader';
import { ServiceError, type MessageView, type ServiceApi } from '../api/service-api';
import { startAgentRun } from '../run/agent-run';
import { newId } from '../run/new-id';
import { EMPTY_RUN, runReducer, type RunView, type ThreadStatus } from '../run/run-view';

/** The selected thread as the page shows and drives it. */
export interface CurrentThread {
  threadId: string;
  status: ThreadStatus;
  messages: MessageView[];
  run: RunView;
  error?: string;
  select(threadId: string): void;
  startNew(): void;
  send(text: string): void;
  stop(): void;
  answer(approved: boolean): void;
}

/**
 * The selected thread: its stored status and history (read again after every run), the run
 * in progress (started here, or a running or paused one of the thread, read from its log), and
 * the actions on it. `onActivity` is told when a run starts or ends, to refresh the list.
 */
export function useCurrentThread(
  api: ServiceApi,
  fetch: AuthFetch,
  token: string,
  onActivity: () => void,
): CurrentThread {
  const [threadId, setThreadId] = useState(() => newId('thread'));
  const [stored, setStored] = useState<{ status: ThreadStatus; messages: MessageView[] }>({
    status: 'idle',
    messages: [],
  });
  const [run, dispatch] = useReducer(runReducer, EMPTY_RUN);
  const [error, setError] = useState<string>();
  const current = useRef(threadId);
  const follower = useRef<AbortController>();
  /** The run this page started and still follows. */
  const running = useRef<ReturnType<typeof startAgentRun>>();

  const load = useCallback(
    async (id: string) => {
      try {
        const [thread, messages] = await Promise.all([api.thread(id), api.messages(id)]);
        if (current.current !== id) return undefined;
        setStored({ status: thread.status, messages });
        setError(undefined);
        dispatch({ type: 'settled' });
        return thread;
      } catch (failure) {
        if (current.current !== id) return undefined;
        if (failure instanceof ServiceError && failure.status === 404)
          setStored({ status: 'idle', messages: [] });
        else setError(failure instanceof Error ? failure.message : String(failure));
        return undefined;
      }
    },
    [api],
  );

  /** Reads the thread's last run from its log: live while it runs, or its pause for approval. */
  const follow = useCallback(
    async (id: string, runId: string) => {
      const controller = new AbortController();
      follower.current = controller;
      dispatch({ type: 'start' });
      try {
        await readRunLog(
          fetch,
          id,
          runId,
          (event) => dispatch({ type: 'event', event }),
          controller.signal,
        );
      } catch {
        // cut by another selection, or the log is gone: the stored status says the rest
      }
      if (controller.signal.aborted) return;
      follower.current = undefined;
      dispatch({ type: 'ended' });
      await load(id);
      onActivity();
    },
    [fetch, load, onActivity],
  );

  const switchTo = useCallback((id: string) => {
    follower.current?.abort();
    follower.current = undefined;
    running.current?.abort();
    running.current = undefined;
    current.current = id;
    setThreadId(id);
    setStored({ status: 'idle', messages: [] });
    setError(undefined);
    dispatch({ type: 'clear' });
  }, []);

  const select = useCallback(
    (id: string) => {
      switchTo(id);
      void load(id).then((thread) => {
        const lastRun = thread?.lastRun?.runId;
        if (lastRun && (thread.status === 'running' || thread.status === 'awaiting_approval'))
          void follow(id, lastRun);
      });
    },
    [switchTo, load, follow],
  );

  const launch = useCallback(
    (request: { message?: string; resume?: Parameters<typeof startAgentRun>[1]['resume'] }) => {
      const id = current.current;
      setError(undefined);
      // A message sent while a run is going replaces it (multitask interrupt): the page stops following the old one.
      const replacing = running.current !== undefined || follower.current !== undefined;
      running.current?.abort();
      follower.current?.abort();
      const started = startAgentRun(
        fetch,
        {
          threadId: id,
          history: stored.messages,
          ...request,
          ...(replacing ? { multitask: 'interrupt' } : {}),
        },
        dispatch,
      );
      running.current = started;
      onActivity();
      void started.done.then(async () => {
        if (running.current !== started) return;
        running.current = undefined;
        await load(id);
        onActivity();
      });
    },
    [fetch, stored.messages, load, onActivity],
  );

  useEffect(() => {
    if (token) void load(current.current);
  }, [token, load]);

  return {
    threadId,
    status: run.status ?? stored.status,
    messages: stored.messages,
    run,
    error: error ?? run.error,
    select,
    startNew: () => switchTo(newId('thread')),
    send: (text) => launch({ message: text }),
    stop: () =>
      void api.cancel(current.current).catch((failure: Error) => setError(failure.message)),
    answer: (approved) =>
      launch({
        resume: run.approvals.map((approval) => ({
          interruptId: approval.id,
          status: 'resolved',
          payload: { approved },
        })),
      }),
  };
}
