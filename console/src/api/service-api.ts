import type {
  MessagePageView,
  MessageView,
  ThreadListItemView,
  ThreadListView,
  ThreadView,
} from 'nest-agent-graceful-shutdown/types';
import type { AuthFetch } from './auth-fetch';

export type { MessageView, ThreadListItemView, ThreadView };

/** A refused request: the service's `{ statusCode, code, message }`. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function json<T>(response: Response): Promise<T> {
  if (response.ok) return (await response.json()) as T;
  const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
  throw new ServiceError(
    response.status,
    body.code ?? 'ERROR',
    body.message ?? `the service answered ${response.status}`,
  );
}

const path = (threadId: string) => encodeURIComponent(threadId);

/** The public API calls the page makes besides runs, all with the current token. */
export class ServiceApi {
  constructor(private readonly fetch: AuthFetch) {}

  /** The caller's most recently active threads (one page of up to `limit`). */
  async listThreads(limit = 50): Promise<ThreadListItemView[]> {
    return (await json<ThreadListView>(await this.fetch(`/v1/threads?limit=${limit}`))).threads;
  }

  async thread(threadId: string): Promise<ThreadView> {
    return json<ThreadView>(await this.fetch(`/v1/threads/${path(threadId)}`));
  }

  /** The thread's whole history, in order, read a page at a time. */
  async messages(threadId: string): Promise<MessageView[]> {
    const messages: MessageView[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `limit=1000${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
      const page: MessagePageView = await json<MessagePageView>(
        await this.fetch(`/v1/threads/${path(threadId)}/messages?${query}`),
      );
      messages.push(...page.messages);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return messages;
  }

  /** A user stop of the thread's active run (202: it stops at once, its stream ends RUN_CANCELED). */
  async cancel(threadId: string): Promise<void> {
    await json<unknown>(await this.fetch(`/v1/runs/${path(threadId)}/cancel`, { method: 'POST' }));
  }
}
