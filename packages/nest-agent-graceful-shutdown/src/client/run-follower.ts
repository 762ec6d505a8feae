import type { BaseEvent, HttpAgentFetchFn } from '@ag-ui/client';
import { abortableDelay } from './abortable-delay.js';
import { EventGapError } from './event-gap.error.js';
import { isRetryableStatus, readRefusal, type HttpRefusal } from './http-refusal.js';
import { InvalidStreamFrameError } from './invalid-stream-frame.error.js';
import type { ResolvedReconnectOptions } from './reconnect-options.js';
import { ReconnectPolicy } from './reconnect-policy.js';
import { ReconnectTimeoutError } from './reconnect-timeout.error.js';
import type {
  ReconnectInfo,
  ReconnectKind,
  ResumableRunStats,
} from './resumable-http-agent-config.js';
import { RunEventSequence } from './run-event-sequence.js';
import { RunRequestError } from './run-request.error.js';
import { StreamConnection, type RunRequest } from './stream-connection.js';

/** What a `RunFollower` needs: the run's requests, the policy settings, and where to count and report. */
export interface RunFollowerSettings {
  runId: string;
  /** The run's POST (the same body every time). */
  post: () => RunRequest;
  /** The join of the run's stream after the event `lastEventId` (0: from the start). */
  join: (lastEventId: number) => RunRequest;
  fetch: HttpAgentFetchFn;
  reconnect: ResolvedReconnectOptions;
  retryInterrupted: boolean;
  onReconnect?: (info: ReconnectInfo) => void;
  stats: ResumableRunStats;
  /** Aborting it stops the run: the follower errors with an `AbortError`. */
  signal: AbortSignal;
}

/** Where the events of the run go (an rxjs subscriber). */
export interface RunEventSink {
  next(event: BaseEvent): void;
  error(error: unknown): void;
  complete(): void;
}

type Step = { request: 'post' | 'join'; kind?: ReconnectKind };
/** The next request, after the server's `Retry-After`, or `atOnce` (no wait even after `RUN_INTERRUPTED`). */
type NextStep = { step: Step; retryAfterMs?: number; atOnce?: boolean };
type Outcome =
  | { type: 'finished' | 'interrupted' | 'handover' | 'gap' }
  | { type: 'lost'; detail: string }
  | { type: 'refused'; refusal: HttpRefusal; request: RunRequest };

/**
 * Follows one run from its POST to its terminal event, across dropped connections, handovers
 * and `RUN_INTERRUPTED` retries, and hands each event to the sink once, in order. Every wait
 * is bounded (`reconnect`), and `close()` or the run's signal stops it with nothing left pending.
 *
 * @example
 * const follower = new RunFollower(settings, subscriber);
 * follower.start();
 * // on unsubscribe: follower.close();
 */
export class RunFollower {
  private readonly stop = new AbortController();
  private readonly policy: ReconnectPolicy;
  private readonly sequence: RunEventSequence;
  private awaitingAdmission = true;
  private conflict?: RunRequestError;
  private lastFailure = 'none';
  private closed = false;
  private readonly onAbort = () => this.stop.abort(this.settings.signal.reason);

  constructor(
    private readonly settings: RunFollowerSettings,
    private readonly sink: RunEventSink,
  ) {
    this.policy = new ReconnectPolicy(settings.reconnect);
    this.sequence = new RunEventSequence(
      settings.runId,
      settings.retryInterrupted,
      () => settings.stats.duplicatesDropped++,
    );
  }

  /** Sends the POST and follows the run until its terminal event, a failure, `close()` or the signal. */
  start(): void {
    if (this.settings.signal.aborted) this.onAbort();
    else this.settings.signal.addEventListener('abort', this.onAbort, { once: true });
    this.follow().then(
      () => this.settle(() => this.sink.complete()),
      (error: unknown) =>
        this.settle(() =>
          this.sink.error(
            this.settings.signal.aborted ? abortError(this.settings.signal.reason) : error,
          ),
        ),
    );
  }

  /** Stops following (the subscriber went away): the open request is cut, any wait ends, nothing more is emitted. */
  close(): void {
    this.closed = true;
    this.stop.abort();
    this.settings.signal.removeEventListener('abort', this.onAbort);
  }

  private settle(emit: () => void): void {
    this.settings.signal.removeEventListener('abort', this.onAbort);
    if (!this.closed) emit();
  }

  private async follow(): Promise<void> {
    let step: Step = { request: 'post' };
    for (;;) {
      const outcome = await this.attempt(step);
      const next = this.nextStep(step, outcome);
      if (!next) return;
      const kind = next.step.kind ?? 'dropped';
      const plan = this.policy.plan(kind, next.retryAfterMs, next.atOnce);
      if (!plan)
        throw new ReconnectTimeoutError(
          this.settings.runId,
          this.settings.reconnect.timeoutMs,
          this.sequence.lastEventId,
          this.lastFailure,
        );
      this.settings.onReconnect?.({
        kind,
        lastEventId: this.sequence.lastEventId,
        attempt: plan.attempt,
      });
      await abortableDelay(plan.delayMs, this.stop.signal);
      step = next.step;
    }
  }

  /**
   * The request after `step` ended with `outcome`; undefined when the run is over. A join that
   * ends with `RUN_INTERRUPTED` read a run already stopped and saved: its POST is resent at once.
   */
  private nextStep(step: Step, outcome: Outcome): NextStep | undefined {
    switch (outcome.type) {
      case 'finished':
        return undefined;
      case 'interrupted':
        this.awaitingAdmission = true;
        this.lastFailure = 'the server stopped the run (RUN_INTERRUPTED)';
        return { step: { request: 'post', kind: 'interrupted' }, atOnce: step.request === 'join' };
      case 'handover':
        this.settings.stats.handovers++;
        return { step: { request: 'join', kind: 'handover' } };
      case 'gap':
        this.lastFailure = `the stream skipped events after event ${this.sequence.lastEventId}`;
        return { step: { request: 'join', kind: 'dropped' } };
      case 'lost':
        this.lastFailure = outcome.detail;
        return {
          step: {
            request: 'join',
            kind: step.request === 'join' ? (step.kind ?? 'dropped') : 'dropped',
          },
        };
      case 'refused':
        return this.afterRefusal(step, outcome.refusal, outcome.request);
    }
  }

  private afterRefusal(step: Step, refusal: HttpRefusal, request: RunRequest): NextStep {
    const error = new RunRequestError(
      request.method,
      request.url,
      refusal.status,
      refusal.code,
      refusal.message,
    );
    this.lastFailure = error.message;
    if (step.request === 'post' && refusal.status === 409 && refusal.code === 'RUN_IN_PROGRESS') {
      this.conflict = error; // if the join does not know the run either, the thread is busy with another one
      return { step: { request: 'join', kind: 'dropped' } };
    }
    if (step.request === 'join' && refusal.status === 404 && this.awaitingAdmission) {
      if (this.conflict) throw this.conflict;
      return { step: { request: 'post', kind: 'resend' } };
    }
    if (isRetryableStatus(refusal.status))
      return {
        step: { request: step.request, kind: step.kind ?? 'resend' },
        retryAfterMs: refusal.retryAfterMs,
      };
    throw error;
  }

  /** Sends one request and reads its answer to the end of what it can say. */
  private async attempt(step: Step): Promise<Outcome> {
    const request =
      step.request === 'post'
        ? this.settings.post()
        : this.settings.join(this.sequence.lastEventId);
    this.count(step);
    const connection = new StreamConnection(this.stop.signal, () => this.policy.silenceMs());
    try {
      const response = await connection.open(this.settings.fetch, request);
      if (!response.ok) return { type: 'refused', refusal: await readRefusal(response), request };
      for await (const frame of connection.frames(response, () => this.policy.alive())) {
        const verdict = this.sequence.accept(frame);
        if (verdict.progressed) this.progress();
        if (verdict.deliver) this.sink.next(verdict.deliver);
        if (verdict.action !== 'continue') return { type: verdict.action };
      }
      return {
        type: 'lost',
        detail: `the stream of ${request.method} ${request.url} ended without a terminal event`,
      };
    } catch (error) {
      if (this.stop.signal.aborted) throw this.stop.signal.reason;
      if (error instanceof EventGapError || error instanceof InvalidStreamFrameError) throw error;
      // Cut by the outage's deadline: the failure before it says more.
      if (connection.timedOutAfterMs !== undefined && this.policy.expired())
        return { type: 'lost', detail: this.lastFailure };
      const cause =
        connection.timedOutAfterMs !== undefined
          ? `no byte arrived for ${connection.timedOutAfterMs} ms`
          : describe(error);
      return { type: 'lost', detail: `${request.method} ${request.url} failed: ${cause}` };
    } finally {
      connection.close();
    }
  }

  private count(step: Step): void {
    const stats = this.settings.stats;
    if (step.request === 'join') stats.joins++;
    else if (step.kind === 'interrupted') stats.interruptedRetries++;
    else if (step.kind) stats.resends++;
  }

  private progress(): void {
    this.policy.progress();
    this.awaitingAdmission = false;
    this.conflict = undefined;
  }
}

/** A readable cause of a failed request (fetch hides the socket's error in `cause`). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/** The error a stopped run ends with: `AbortError`, which `runAgent` treats as a stop, not a failure. */
function abortError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  return new DOMException(
    typeof reason === 'string' ? reason : 'the run was aborted',
    'AbortError',
  );
}
