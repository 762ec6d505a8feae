import type { MultitaskStrategy } from '../agent/multitask.js';
import type { HttpAgentConfig } from '@ag-ui/client';
import type { ReconnectOptions } from './reconnect-options.js';

/**
 * Why the client sends another request for a run:
 * - `handover`: the server handed the run over to another instance (a `handover` notice); the client joins;
 * - `dropped`: the stream ended without a terminal event, skipped an event, or the POST was answered
 *   `409 RUN_IN_PROGRESS`; the client joins from the last event it has;
 * - `interrupted`: the server stopped the run with `RUN_ERROR` `RUN_INTERRUPTED`; the client resends the POST;
 * - `resend`: the run was never admitted (no event, then a join answered 404) or the POST was refused
 *   with a retryable status (503 `SHUTTING_DOWN`, 5xx); the client resends the POST.
 */
export type ReconnectKind = 'handover' | 'dropped' | 'interrupted' | 'resend';

/** What `onReconnect` is told before each request that follows the first POST of a run. */
export interface ReconnectInfo {
  /** Why the request is made. */
  kind: ReconnectKind;
  /** The id of the last event received for the run; 0 when none was. */
  lastEventId: number;
  /** 1 for the first request since the last new event, then 2, 3, … */
  attempt: number;
}

/**
 * Counters of the requests an agent made beyond each run's first POST, since it was created;
 * a run that no instance dropped leaves them all at 0. They only grow.
 *
 * @example
 * expect(agent.stats.resends).toBe(0); // no run had to be sent again
 */
export interface ResumableRunStats {
  /** `handover` notices received. */
  handovers: number;
  /** Join requests sent (`GET …/stream` with `Last-Event-ID`), whatever their reason. */
  joins: number;
  /** POSTs sent again because a run was never admitted or the POST was refused with a retryable status. */
  resends: number;
  /** POSTs sent again after a `RUN_ERROR` with code `RUN_INTERRUPTED`. */
  interruptedRetries: number;
  /** Events received a second time (an id at or below the last one) and dropped. */
  duplicatesDropped: number;
}

/**
 * Settings of a `ResumableHttpAgent`: those of `HttpAgent` (`url`, `headers`, `fetch`, …) and how
 * it follows a run across lost connections.
 *
 * @example
 * const config: ResumableHttpAgentConfig = {
 *   url: 'https://agents.example.com/v1/runs',
 *   headers: { Authorization: `Bearer ${token}` },
 *   reconnect: { timeoutMs: 120_000 },
 *   onReconnect: ({ kind, attempt }) => console.info(`re-following the run (${kind}, attempt ${attempt})`),
 * };
 */
export interface ResumableHttpAgentConfig extends HttpAgentConfig {
  /** Deadline and backoff of the reconnects. @default see `ReconnectOptions` */
  reconnect?: ReconnectOptions;
  /**
   * The URL that joins a run's stream. @default the POST URL's path followed by
   * `/{threadId}/stream?runId={runId}` (`…/v1/runs` → `…/v1/runs/{threadId}/stream?runId={runId}`)
   */
  joinUrl?: (threadId: string, runId: string) => string;
  /**
   * Whether a `RUN_ERROR` with code `RUN_INTERRUPTED` is answered by resending the same request,
   * hidden from the subscribers (with the resent run's second `RUN_STARTED`); `false` delivers it
   * and ends the run. @default true
   */
  retryInterrupted?: boolean;
  /** Called before each request beyond a run's first POST, before any wait. An error thrown fails the run. @default none */
  onReconnect?: (info: ReconnectInfo) => void;
  /**
   * What a new run does while the thread's run is active, sent as the POST's `multitask` query:
   * `interrupt` stops that run (its stream ends `RUN_REPLACED`) and follows it, a user's
   * correction while the agent works; `reject` refuses it with 409. @default the service's (`reject`)
   */
  multitask?: MultitaskStrategy;
}
