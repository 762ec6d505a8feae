/**
 * The service refused a request of the run for good (401, 403, 404 of a run it had admitted,
 * 410, 4xx), so the run cannot be followed. `code` is the service's own code when its body
 * carried one (`THREAD_ACCESS_DENIED`, `RUN_NOT_FOUND`, …), else `HTTP_<status>`.
 *
 * @example
 * try { await agent.runAgent(); } catch (error) {
 *   if (error instanceof RunRequestError && error.status === 410) startOver(); // the run's log is gone
 * }
 */
export class RunRequestError extends Error {
  override readonly name = 'RunRequestError';
  readonly code: string;

  /** @param status the HTTP status; @param code the service's code, if its body had one. */
  constructor(
    readonly method: string,
    readonly url: string,
    readonly status: number,
    code: string | undefined,
    detail: string,
  ) {
    super(
      `${method} ${url} was answered ${status}${code ? ` ${code}` : ''}${detail ? `: ${detail}` : ''}`,
    );
    this.code = code ?? `HTTP_${status}`;
  }
}
