import type { RedisLogWire, StreamEntry } from './redis-log-wire.js';
import type { RunLogFollowers } from './run-log-followers.js';

/** Entries read per log per read, so a long replay comes in pages. */
export const FOLLOW_READ_COUNT = 1_000;
/** Longest wait between two reads while Redis is away or after a failed read, in milliseconds. */
export const FOLLOW_RETRY_MS = 1_000;
/** Longest idle wait while nothing is followed, in milliseconds (a follow ends it at once). */
export const FOLLOW_IDLE_MS = 30_000;

/** An `XREAD` reply as ioredis returns it: each key read with its entries, or null for none. */
export type FollowReadReply = [key: string, entries: StreamEntry[]][] | null;

/**
 * Hands what one follow read returned to the followers of each key read, each key after its
 * cursor in `cursors` (keys not there, e.g. a wake stream, are left to the caller). An entry
 * this version cannot read fails that key's followers: following past it would skip it.
 * Returns whether a page came back full, so more may be waiting.
 */
export function deliverFollowRead(
  followers: RunLogFollowers,
  wire: RedisLogWire,
  reply: FollowReadReply,
  cursors: Map<string, number>,
): boolean {
  let full = false;
  for (const [key, entries] of reply ?? []) {
    const from = cursors.get(key);
    if (from === undefined) continue;
    full ||= entries.length >= FOLLOW_READ_COUNT;
    try {
      followers.deliver(key, from, wire.decode(entries));
    } catch (error) {
      followers.fail(key, new Error(`run log ${key} holds an unreadable entry: ${String(error)}`));
    }
  }
  return full;
}
