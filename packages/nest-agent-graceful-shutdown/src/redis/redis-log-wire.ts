import type { BaseEvent } from '@ag-ui/core';
import type { LoggedEvent, RunLogKey } from '../contracts/run-event-log.interface.js';
import { RedisRunKey } from './redis-run-key.js';

/** A Redis Stream entry as ioredis returns it: its id and its flat field/value list. */
export type StreamEntry = [id: string, fields: string[]];

/** The one field of an entry, holding the event's JSON. */
const EVENT_FIELD = 'e';

/**
 * The Redis names and entries of the run event log, shared by every instance. Changing them
 * is a wire change: instances of different versions would stop reading each other's logs.
 * One Redis Stream per run; an event with id `n` is the entry `n-0`, so Redis itself keeps
 * the ids in order and an exclusive range `(n-0` reads after any event.
 */
export class RedisLogWire {
  private readonly keys: RedisRunKey;

  /**
   * @param prefix put before every key, e.g. `agents:`.
   * @param hashTags put each run's part of its keys in a hash tag (`{threadId:runId}`), so a
   * Redis Cluster keeps a run's keys in one slot, where one script may touch them all. Off for
   * a standalone Redis, whose key names stay those of earlier versions.
   */
  constructor(prefix: string, hashTags = false) {
    this.keys = new RedisRunKey(prefix, hashTags);
  }

  /** The run's stream (see {@link RedisRunKey} for how the ids appear). */
  logKey(run: RunLogKey): string {
    return this.keys.key('log', run.threadId, run.runId);
  }

  /** The run attempt that claimed the run's log last (a string key beside the stream, in its slot). */
  writerKey(run: RunLogKey): string {
    return this.keys.key('log-writer', run.threadId, run.runId);
  }

  /** A stream of one log instance that only serves to wake its blocked follow read. */
  wakeKey(instanceId: string): string {
    return `${this.keys.prefix}log-wake:${instanceId}`;
  }

  /** The exclusive start of a range after event `afterId`. */
  after(afterId: number): string {
    return `(${Math.max(0, Math.floor(afterId))}-0`;
  }

  /** The cursor of a blocking read after event `afterId`. */
  cursor(afterId: number): string {
    return `${Math.max(0, Math.floor(afterId))}-0`;
  }

  /** The append script's arguments: id, JSON, id, JSON… Throws on an id Redis could not keep exactly. */
  encode(events: readonly LoggedEvent[]): string[] {
    const args: string[] = [];
    for (const { id, event } of events) {
      if (!Number.isSafeInteger(id) || id < 1)
        throw new RangeError(
          `event id ${id} is not a positive integer: ids of a run's log start at 1`,
        );
      args.push(String(id), JSON.stringify(event));
    }
    return args;
  }

  /** The events of stream entries, in the entries' order. */
  decode(entries: readonly StreamEntry[]): LoggedEvent[] {
    return entries.map(([id, fields]) => ({
      id: Number.parseInt(id, 10),
      event: JSON.parse(fieldOf(fields)) as BaseEvent,
    }));
  }
}

function fieldOf(fields: readonly string[]): string {
  for (let index = 0; index + 1 < fields.length; index += 2)
    if (fields[index] === EVENT_FIELD) return fields[index + 1];
  throw new Error(`log entry has no '${EVENT_FIELD}' field`);
}

/** The error the append script answers to a writer that another one replaced. */
export const FENCED_REPLY = 'FENCED';

/** The error the append script answers to a contiguous batch the stream ends before, followed by the stream's last id. */
export const GAP_REPLY = 'GAP';

/**
 * Appends events to a run's stream in one step. KEYS[1] is the stream, KEYS[2] its writer key;
 * ARGV[1] is the appending writer ('' for none), ARGV[2] '1' for a contiguous batch, then id,
 * JSON pairs in id order. A writer other than the one that claimed the log last is refused with
 * {@link FENCED_REPLY}, storing nothing; a writer whose claim the store lost (a restart, a
 * failover) is made the writer again. Ids not above the stream's last one are skipped: a retried
 * batch that was partly (or wholly) stored. A contiguous batch whose first new id is more than
 * one above the stream's last one is refused with {@link GAP_REPLY} and that last id, storing
 * nothing; otherwise such an id is stored, and readers see the gap of a Redis that lost data.
 * Storing anything removes the keys' expiry, since a later attempt of an ended run keeps its
 * log alive. Returns how many events were stored.
 */
export const APPEND_SCRIPT = `
local writer = false
if ARGV[1] ~= '' then
  writer = redis.call('GET', KEYS[2])
  if writer and writer ~= ARGV[1] then return redis.error_reply('${FENCED_REPLY} another attempt claimed this log') end
end
local top = 0
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last > 0 then top = tonumber(string.match(last[1][1], '^%d+')) end
if ARGV[2] == '1' then
  for i = 3, #ARGV, 2 do
    local id = tonumber(ARGV[i])
    if id > top then
      if id > top + 1 then return redis.error_reply('${GAP_REPLY} ' .. top) end
      break
    end
  end
end
local stored = 0
for i = 3, #ARGV, 2 do
  local id = tonumber(ARGV[i])
  if id > top then
    redis.call('XADD', KEYS[1], ARGV[i] .. '-0', '${EVENT_FIELD}', ARGV[i + 1])
    top = id
    stored = stored + 1
  end
end
if stored > 0 then
  if ARGV[1] ~= '' and not writer then redis.call('SET', KEYS[2], ARGV[1]) end
  redis.call('PERSIST', KEYS[1])
  redis.call('PERSIST', KEYS[2])
end
return stored
`;

/**
 * Makes ARGV[1] the writer of a run's log (KEYS[1] the stream, KEYS[2] its writer key) and
 * returns the stream's last entry, in one step; the writer key expires with the stream.
 */
export const CLAIM_SCRIPT = `
redis.call('SET', KEYS[2], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
`;
