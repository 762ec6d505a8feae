import type { AgentMessage } from '../agent/agent-message.js';
import { HistoryLimitError } from '../errors/history-limit.error.js';
import { TooManyMessagesError } from '../errors/too-many-messages.error.js';
import { resolveOptionGroup, uniformOptionGroup } from './option-group.js';
import { wholeNumberAtLeastZero } from './option-rules.js';

/**
 * Per-user limits on runs and on what a request may add to a thread. A request over a limit is
 * refused with 429 and `Retry-After`, and writes nothing. 0 (the default of each) means no limit.
 *
 * @example
 * GracefulShutdownModule.forRoot({ limits: { maxActiveRunsPerUser: 10, maxMessagesPerRequest: 50, maxHistoryMessages: 1000 } });
 */
export interface RunLimitOptions {
  /**
   * How many runs one user may have active at once, across every instance (counted in the
   * session store, so a crash strands no slot: runs whose lease expired do not count). More get
   * `TooManyRunsError` (429 `TOO_MANY_RUNS`, `Retry-After: 5`). A run that continues an interrupted thread, by
   * the client's retry or by an instance in resume mode `auto`, was admitted once already and is
   * never refused by this limit.
   * @default 0 (no limit)
   */
  maxActiveRunsPerUser?: number;
  /**
   * How many new messages one request may add to a thread (messages the thread does not hold
   * yet: AG-UI clients resend the whole conversation, and its echoes add nothing). More get
   * `TooManyMessagesError` (429 `TOO_MANY_MESSAGES`).
   * @default 0 (no limit)
   */
  maxMessagesPerRequest?: number;
  /**
   * How many messages a thread's stored history may reach through a request: a request whose
   * new messages would take it past this gets `HistoryLimitError` (429
   * `HISTORY_LIMIT_REACHED`). The run a request starts may still add its own answers and tool
   * results beyond it; a request with no new message (a retry that resumes) is never refused.
   * @default 0 (no limit)
   */
  maxHistoryMessages?: number;
}

/** `RunLimitOptions` with its defaults applied; 0 is no limit. */
export type ResolvedRunLimits = Required<RunLimitOptions>;

/** The defaults of `RunLimitOptions`. */
export const RUN_LIMIT_DEFAULTS: ResolvedRunLimits = Object.freeze({
  maxActiveRunsPerUser: 0,
  maxMessagesPerRequest: 0,
  maxHistoryMessages: 0,
});

/** The options of `limits`: each a whole number ≥ 0, 0 meaning no limit. */
export const RUN_LIMIT_OPTIONS = uniformOptionGroup<RunLimitOptions>(RUN_LIMIT_DEFAULTS, wholeNumberAtLeastZero('no limit'));

/** Applies the defaults; throws a `RangeError` naming a value that is not a whole number ≥ 0, or a `TypeError` naming a key `limits` does not have. */
export function resolveRunLimits(options: RunLimitOptions = {}): ResolvedRunLimits {
  return resolveOptionGroup('limits', RUN_LIMIT_OPTIONS, options);
}

/**
 * Refuses a request whose new messages pass the per-request or the history limit (nothing is
 * written yet when this runs). `stored` is the thread's history length, 0 for a new thread.
 */
export function assertMessageLimits(limits: ResolvedRunLimits, threadId: string, stored: number, added: readonly AgentMessage[]): void {
  if (added.length === 0) return;
  if (limits.maxMessagesPerRequest > 0 && added.length > limits.maxMessagesPerRequest) {
    throw new TooManyMessagesError(added.length, limits.maxMessagesPerRequest);
  }
  if (limits.maxHistoryMessages > 0 && stored + added.length > limits.maxHistoryMessages) {
    throw new HistoryLimitError(threadId, stored, added.length, limits.maxHistoryMessages);
  }
}
