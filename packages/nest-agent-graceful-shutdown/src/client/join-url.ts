/**
 * The default join URL of a run, derived from the URL runs are POSTed to: its path followed by
 * `/{threadId}/stream`, with `runId` in the query (the POST URL's own query is kept). A relative
 * POST URL is resolved against the page's `location` in a browser.
 *
 * @example
 * defaultJoinUrl('https://agents.example.com/v1/runs')('t-1', 'r-1');
 * // 'https://agents.example.com/v1/runs/t-1/stream?runId=r-1'
 */
export function defaultJoinUrl(postUrl: string): (threadId: string, runId: string) => string {
  return (threadId, runId) => {
    const page = (globalThis as { location?: { href?: string } }).location?.href;
    const url = new URL(postUrl, page);
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/${encodeURIComponent(threadId)}/stream`;
    url.searchParams.set('runId', runId);
    return url.toString();
  };
}

/**
 * `url` with `name` set to `value` in its query, resolved against the page's `location` in a
 * browser when relative.
 *
 * @example
 * withQuery('https://agents.example.com/v1/runs', 'multitask', 'interrupt');
 * // 'https://agents.example.com/v1/runs?multitask=interrupt'
 */
export function withQuery(url: string, name: string, value: string): string {
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  const resolved = new URL(url, page);
  resolved.searchParams.set(name, value);
  return resolved.toString();
}
