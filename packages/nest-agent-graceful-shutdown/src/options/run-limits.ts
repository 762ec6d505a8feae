import type { AgentMessage } from '../agent/agent-message.js';
import { messageBytes } from '../agent/message-bytes.js';
import { HistoryLimitError } from '../errors/history-limit.error.js';
import { ThreadTooLargeError } from '../errors/thread-too-large.error.js';
import { TooManyMessagesError } from '../errors/too-many-messages.error.js';
import { resolveOptionGroup, uniformOptionGroup } from './option-group.js';
import { wholeNumberAtLeastZero } from './option-rules.js';

/**
 * Per-user limits on runs and on what a request may add to a thread. A request over a limit is
 * refused (429 with `Retry-After`, or 413 for a thread's size) and writes nothing. 0 (the default
 * of each) means no limit.
 *
 * @example
 * GracefulShutdownModule.forRoot({ limits: { maxActiveRunsPerUser: 10, maxMessagesPerRequest: 50, maxHistoryMessages: 1000, maxThreadBytes: 8_388_608 } });
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
  /**
   * How many bytes a thread's stored history may reach through a request, counted as the UTF-8
   * bytes of each message's content and its tool calls' arguments. A request whose new messages
   * would take it past this gets `ThreadTooLargeError` (413 `THREAD_TOO_LARGE`) and writes
   * nothing. Checked at admission only: a run already admitted finishes, and its own answers
   * and tool results may take the thread past the limit (the next request with a new message
   * is then refused); a request with no new message (a retry that resumes) is never refused.
   * @default 0 (no limit)
   */
  maxThreadBytes?: number;
}

/** `RunLimitOptions` with its defaults applied; 0 is no limit. */
export type ResolvedRunLimits = Required<RunLimitOptions>;

/** The defaults of `RunLimitOptions`. */
export const RUN_LIMIT_DEFAULTS: ResolvedRunLimits = Object.freeze({
  maxActiveRunsPerUser: 0,
  maxMessagesPerRequest: 0,
  maxHistoryMessages: 0,
  maxThreadBytes: 0,
});

/** The options of `limits`: each a whole number ≥ 0, 0 meaning no limit. */
export const RUN_LIMIT_OPTIONS = uniformOptionGroup<RunLimitOptions>(
  RUN_LIMIT_DEFAULTS,
  wholeNumberAtLeastZero('no limit'),
);

/** Applies the defaults; throws a `RangeError` naming a value that is not a whole number ≥ 0, or a `TypeError` naming a key `limits` does not have. */
export function resolveRunLimits(options: RunLimitOptions = {}): ResolvedRunLimits {
  return resolveOptionGroup('limits', RUN_LIMIT_OPTIONS, options);
}

/**
 * Refuses a request whose new messages pass the per-request, the history or the size limit
 * (nothing is written yet when this runs). `history` is the thread's stored history, empty for
 * a new thread: admission reads it anyway to skip echoed messages, so its size costs no query.
 */
export function assertMessageLimits(
  limits: ResolvedRunLimits,
  threadId: string,
  history: readonly AgentMessage[],
  added: readonly AgentMessage[],
): void {
  if (added.length === 0) return;
  const stored = history.length;
  if (limits.maxMessagesPerRequest > 0 && added.length > limits.maxMessagesPerRequest) {
    throw new TooManyMessagesError(added.length, limits.maxMessagesPerRequest);
  }
  if (limits.maxHistoryMessages > 0 && stored + added.length > limits.maxHistoryMessages) {
    throw new HistoryLimitError(threadId, stored, added.length, limits.maxHistoryMessages);
  }
  if (limits.maxThreadBytes > 0) {
    const storedBytes = messageBytes(history);
    const addedBytes = messageBytes(added);
    if (storedBytes + addedBytes > limits.maxThreadBytes) {
      throw new ThreadTooLargeError(threadId, storedBytes, addedBytes, limits.maxThreadBytes);
    }
  }
}
