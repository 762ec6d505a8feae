import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ServiceApi, ThreadListItemView } from '../api/service-api';

/** How often the list of threads is read again, in milliseconds: other tabs' runs show up by then. */
const POLL_MS = 3_000;

/**
 * The caller's threads (`GET /v1/threads`), read when `token` changes, every few seconds, and
 * on `refresh()`. While the service is unreachable the last list stays.
 */
export function useThreadList(
  api: ServiceApi,
  token: string,
): { threads: ThreadListItemView[]; refresh: () => void } {
  const [threads, setThreads] = useState<ThreadListItemView[]>([]);
  const refresh = useCallback(() => {
    if (!token) return;
    api.listThreads().then(setThreads, () => undefined);
  }, [api, token]);
  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);
  return { threads, refresh };
}
