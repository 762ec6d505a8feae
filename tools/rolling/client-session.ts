import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientGap, RunMoment } from './rollout-timeline';
import { attemptRun, type AttemptResult } from './run-attempt';

/** One user turn: from the first request to the run that finished it. */
export interface TurnRecord {
  threadId: string;
  durationMs: number;
  /** More than one request was needed (an interruption, a refusal, a cut-off, a reset). */
  disrupted: boolean;
  completed: boolean;
}

/** What all clients saw, summed. */
export class ClientTally {
  runsStarted = 0;
  runsCompleted = 0;
  /** Runs that ended `RUN_INTERRUPTED` (stopped by a shutdown at a safe point). */
  runsInterrupted = 0;
  /** Runs whose stream ended without a terminal event (their instance was killed). */
  runsCutOff = 0;
  /** Runs that started right after an interrupted, cut-off or reset attempt of the same turn. */
  runsResumed = 0;
  /** 503 answers with `Retry-After` (the instance is shutting down), retried after that delay. */
  retriedShuttingDown = 0;
  /** 409 answers after a cut-off: the dead instance's lease had not run out yet; retried. */
  retriedInProgress = 0;
  /** Requests that got no answer (connection refused or reset), retried. */
  retriedConnectionErrors = 0;
  /**
   * 502/504 from the load balancer: the instance died holding the request, before answering.
   * Retried, since a run request is safe to resend; a graceful rollout must have none.
   */
  retriedBadGateway = 0;
  /** What the connection errors said. */
  readonly connectionErrors: string[] = [];
  /** Requests that failed without a retry path, described. */
  readonly failures: string[] = [];
  readonly turns: TurnRecord[] = [];
  /** When runs were interrupted, cut off and resumed, for the rollout's timeline. */
  readonly moments: RunMoment[] = [];
  /** Each stretch a client went without events: from its run's stream ending early to the first event of the attempt that resumed it. */
  readonly gaps: ClientGap[] = [];
}

export interface ClientSessionOptions {
  /** The load balancer's URL. */
  baseUrl: string;
  token: string;
  threadId: string;
  /** Give up on a turn after this long, in ms: counted as a failure. */
  turnDeadlineMs: number;
}

/** A pause of `ms` plus up to 50% jitter, so retries after one event do not arrive as one burst. */
function backoff(ms: number): Promise<void> {
  return sleep(ms + Math.random() * ms * 0.5);
}

/**
 * One user's conversation, as a well-behaved client runs it: each turn sends one new user
 * message; a run stopped by a shutdown (`RUN_INTERRUPTED`), a stream cut off by a dead
 * instance, a reset connection, a 502/504 from the load balancer, a 503 with `Retry-After`, or
 * a 409 while a dead instance's run still holds the thread is retried with the same thread id and the same message id,
 * which the service never stores twice. Anything else is a failure without a retry path.
 */
export class ClientSession {
  /** Ids of the user messages the service accepted (a run on them started), one per turn. */
  readonly acceptedMessageIds: string[] = [];
  /** Ids of the messages the streams reported finished (saved). */
  readonly finishedMessageIds = new Set<string>();

  constructor(
    private readonly options: ClientSessionOptions,
    private readonly tally: ClientTally,
  ) {}

  get threadId(): string {
    return this.options.threadId;
  }

  /** The bearer token of the user the thread belongs to. */
  get token(): string {
    return this.options.token;
  }

  /** Runs turn `n` to its end; true when it completed. */
  async turn(n: number): Promise<boolean> {
    const message = { id: `${this.threadId}-turn-${n}`, content: `Turn ${n}: do the demo task.` };
    const began = performance.now();
    const deadline = began + this.options.turnDeadlineMs;
    let attempts = 0;
    let interrupted = false;
    /** When this turn's stream was lost, until an attempt gets events again. */
    let lostAtMs: number | undefined;
    for (;;) {
      if (performance.now() > deadline)
        return this.end(
          began,
          attempts,
          false,
          `turn ${message.id} gave up after ${attempts} attempts`,
        );
      attempts++;
      const attempt = await attemptRun(
        this.options.baseUrl,
        this.options.token,
        this.threadId,
        message,
        this.options.turnDeadlineMs,
      );
      for (const id of attempt.finishedMessageIds) this.finishedMessageIds.add(id);
      if (attempt.started) {
        if (!this.acceptedMessageIds.includes(message.id)) this.acceptedMessageIds.push(message.id);
        this.tally.runsStarted++;
        if (interrupted) this.tally.runsResumed++;
      }
      if (lostAtMs !== undefined && attempt.firstEventAtMs !== undefined) {
        this.tally.moments.push({ kind: 'resumed', atMs: attempt.firstEventAtMs });
        this.tally.gaps.push({ fromMs: lostAtMs, toMs: attempt.firstEventAtMs });
        lostAtMs = undefined;
      }
      const lost = this.lostStream(attempt);
      if (lost) {
        this.tally.moments.push({ kind: lost, atMs: attempt.endedAtMs });
        lostAtMs ??= attempt.endedAtMs;
      }
      const next = this.classify(attempt, interrupted);
      if (next === 'done') return this.end(began, attempts, true);
      if (typeof next === 'string')
        return this.end(began, attempts, false, `${message.id}: ${next}`);
      interrupted ||= next.interrupted;
      await backoff(next.retryInMs);
    }
  }

  /** How the attempt lost its run's stream, if it did: `RUN_INTERRUPTED`, or a stream that ended without a terminal event. */
  private lostStream(attempt: AttemptResult): 'interrupted' | 'cut off' | undefined {
    const { outcome } = attempt;
    if (outcome.kind === 'run-error' && outcome.code === 'RUN_INTERRUPTED') return 'interrupted';
    return outcome.kind === 'cut-off' ? 'cut off' : undefined;
  }

  /** What to do after an attempt: done, retry after a delay, or a failure described. */
  private classify(
    attempt: AttemptResult,
    interrupted: boolean,
  ): 'done' | string | { retryInMs: number; interrupted: boolean } {
    const { outcome } = attempt;
    switch (outcome.kind) {
      case 'finished':
        this.tally.runsCompleted++;
        return 'done';
      case 'run-error':
        if (outcome.code !== 'RUN_INTERRUPTED') return `run ended with ${outcome.code}`;
        this.tally.runsInterrupted++;
        return { retryInMs: 200, interrupted: true };
      case 'cut-off':
        this.tally.runsCutOff++;
        return { retryInMs: 250, interrupted: true };
      case 'connection-error':
        this.tally.retriedConnectionErrors++;
        this.tally.connectionErrors.push(outcome.error);
        return { retryInMs: 250, interrupted: true };
      case 'refused':
        if (
          outcome.status === 503 &&
          outcome.retryAfterSeconds !== undefined &&
          Number.isFinite(outcome.retryAfterSeconds)
        ) {
          this.tally.retriedShuttingDown++;
          return { retryInMs: outcome.retryAfterSeconds * 1000, interrupted };
        }
        if (outcome.status === 502 || outcome.status === 504) {
          this.tally.retriedBadGateway++;
          return { retryInMs: 250, interrupted: true };
        }
        if (outcome.status === 409 && outcome.code === 'RUN_IN_PROGRESS' && interrupted) {
          this.tally.retriedInProgress++;
          return { retryInMs: 500, interrupted };
        }
        return `HTTP ${outcome.status} ${outcome.code ?? ''}`.trim();
    }
  }

  private end(began: number, attempts: number, completed: boolean, failure?: string): boolean {
    if (failure) this.tally.failures.push(failure);
    this.tally.turns.push({
      threadId: this.threadId,
      durationMs: performance.now() - began,
      disrupted: attempts > 1,
      completed,
    });
    return completed;
  }
}
