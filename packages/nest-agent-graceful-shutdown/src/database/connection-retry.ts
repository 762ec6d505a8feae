import { setTimeout as sleep } from 'node:timers/promises';

// Connection-level failures of a database that is restarting or briefly unreachable; anything
// else (a constraint, a lost lease) is an answer and is never retried.
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);
const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /connection.*(closed|ended)/i,
  /terminating connection/i,
  /not queryable/i,
  /timeout exceeded when trying to connect/i,
];

/** True for an error that means "the database could not be reached", not "the database said no". */
export function isTransientConnectionError(error: unknown): boolean {
  const candidate = error as {
    name?: unknown;
    code?: unknown;
    driverError?: { code?: unknown };
    message?: unknown;
  } | null;
  if (!candidate) return false;
  // TypeORM releases a transaction's connection when the server drops it mid-transaction; the
  // transaction's next statement then fails with one of these, whichever method it used.
  if (
    candidate.name === 'QueryRunnerAlreadyReleasedError' ||
    candidate.name === 'QueryRunnerProviderAlreadyReleasedError'
  )
    return true;
  const code = candidate.code ?? candidate.driverError?.code;
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  const message = typeof candidate.message === 'string' ? candidate.message : '';
  return TRANSIENT_MESSAGES.some((pattern) => pattern.test(message));
}

// PostgreSQL aborts one of two transactions that lock rows in opposite orders (deadlock) or
// cannot be serialized; the other goes on, and the aborted one wrote nothing.
const CONFLICT_CODES = new Set(['40P01', '40001']);

/**
 * True for a transaction the database aborted because of another one: running it again is
 * safe. A batch that updates thousands of threads can deadlock with a write that updates the
 * same rows in another order; without a retry, one deadlock would fail every run of the batch.
 */
export function isTransactionConflict(error: unknown): boolean {
  const candidate = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = candidate?.code ?? candidate?.driverError?.code;
  return typeof code === 'string' && CONFLICT_CODES.has(code);
}

/** How long a write keeps retrying through a database outage. */
export interface RetryPolicy {
  /** Give up after this many milliseconds. @default 30000 */
  deadlineMs: number;
  /** First pause between attempts, doubled up to `maxDelayMs`. @default 100 */
  initialDelayMs: number;
  /** @default 2000 */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  deadlineMs: 30_000,
  initialDelayMs: 100,
  maxDelayMs: 2_000,
};

/**
 * Runs `attempt` until it succeeds, fails with an error that is neither transient nor a
 * conflict with another transaction (`isTransactionConflict`), or the deadline passes.
 * `attempt` gets its attempt number: from 1 on, an earlier attempt may have committed
 * without the answer arriving, so the work must check whether it is already done.
 */
export async function retryThroughOutage<T>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<T> {
  const deadline = Date.now() + policy.deadlineMs;
  let delay = policy.initialDelayMs;
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (
        !(isTransientConnectionError(error) || isTransactionConflict(error)) ||
        Date.now() + delay > deadline
      )
        throw error;
      await sleep(delay);
      delay = Math.min(delay * 2, policy.maxDelayMs);
    }
  }
}
