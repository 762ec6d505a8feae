import type { HttpResponseTarget } from '../http/server-response.js';

/** How a request for an existing run is answered: following it live, or replaying its ended log. */
export type ExistingRunAnswerKind = 'joined' | 'replayed';

/**
 * The answer to a request that names a run which already exists: its event stream from the
 * log, with the ids it had, to its terminal event. A run that had several attempts reads as one
 * AG-UI sequence ending with its current terminal event (an older attempt's `RUN_INTERRUPTED`
 * reads as a `CUSTOM` `run_interrupted` notice). Every check was made before this was made,
 * so `streamTo` writes the stream and nothing else; no model is called and nothing is written
 * to the thread.
 */
export class ExistingRunStream {
  constructor(
    readonly threadId: string,
    readonly runId: string,
    /** `joined`: the run is active and is followed live; `replayed`: it ended and its log is replayed. */
    readonly kind: ExistingRunAnswerKind,
    private readonly write: (response: HttpResponseTarget) => Promise<void>,
  ) {}

  /**
   * Streams the run's events to `response` as server-sent events (an Express `Response`, a
   * Fastify `FastifyReply` or a Node `ServerResponse`), resolving once the stream is open and
   * following the log; it goes on to the run's terminal event without holding the request.
   */
  streamTo(response: HttpResponseTarget): Promise<void> {
    return this.write(response);
  }
}
