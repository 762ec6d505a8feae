import { createHash } from 'node:crypto';

/**
 * What a tool's own system needs to refuse a duplicate or a stale effect of one tool call.
 *
 * @example
 * // An HTTP tool: the service keeps the first answer per key and replays it.
 * await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': fence.idempotencyKey }, body });
 * // A database tool: refuse a write from an attempt older than the last one seen.
 * UPDATE accounts SET balance = $1, fence = $2 WHERE id = $3 AND fence <= $2  -- 0 rows: refused
 */
export interface ToolFence {
  /**
   * The same for every execution of one tool call: across retries, instances and resumes of
   * the run. Send it where the system dedupes (an `Idempotency-Key` header, a unique column)
   * so that a call executed twice has one effect. See `idempotencyKeyOf` for its derivation.
   */
  idempotencyKey: string;
  /**
   * Grows every time the run's lease changes hands (each new attempt of the run: a resume, a
   * takeover after a crash, a handover). Keep the highest token seen per thread beside the
   * effect and refuse a call whose token is lower: it comes from an attempt that has lost its
   * lease (a process paused, then woken after another one took the run over). 0 for a run
   * started outside the module's store.
   */
  fencingToken: number;
}

/**
 * The idempotency key of a tool call: `tc_` then the SHA-256, in hex, of the JSON array
 * `[threadId, toolCallId]`. Tool-call ids are unique within a thread only, so the thread is
 * part of it; JSON keeps the two apart whatever characters they hold, and the hash keeps the
 * key short, ASCII and safe in a header.
 *
 * @example idempotencyKeyOf('thread-1', 'call_abc') // 'tc_…' (67 characters), the same in every process
 */
export function idempotencyKeyOf(threadId: string, toolCallId: string): string {
  return `tc_${createHash('sha256')
    .update(JSON.stringify([threadId, toolCallId]))
    .digest('hex')}`;
}

/** The fence of one call of a run whose attempt holds `fencingToken`. */
export function toolFenceOf(threadId: string, toolCallId: string, fencingToken: number): ToolFence {
  return { idempotencyKey: idempotencyKeyOf(threadId, toolCallId), fencingToken };
}
