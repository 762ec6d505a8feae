import type { CancelSignal, RunEndedSignal } from '../contracts/signal-bus.interface.js';
import {
  cancelOf,
  encodeCancelPayload,
  encodeRunEndedPayload,
  parseSignalPayload,
  runEndedOf,
} from '../signals/signal-payloads.js';
import { RedisRunKey } from './redis-run-key.js';

/**
 * The Redis names and payloads of the signal bus, shared by every instance. Changing them
 * is a wire change: instances of different versions would stop hearing each other.
 */
export class RedisSignalWire {
  /** Channel every instance subscribes to for cancels. */
  readonly cancelChannel: string;
  /** Channel every instance subscribes to for run-ended notices. */
  readonly runEndedChannel: string;
  private readonly keys: RedisRunKey;

  /**
   * @param prefix put before every key and channel, e.g. `agents:`.
   * @param hashTags put each run's part of its keys in a hash tag (`{threadId:runId}`), the
   * slot of the run's other keys on a Redis Cluster. Off for a standalone Redis, whose key
   * names stay those of earlier versions.
   */
  constructor(prefix: string, hashTags = false) {
    this.keys = new RedisRunKey(prefix, hashTags);
    this.cancelChannel = `${prefix}cancel`;
    this.runEndedChannel = `${prefix}run-ended`;
  }

  /** Key remembering one run's cancel (see {@link RedisRunKey} for how the ids appear). */
  cancelKey(threadId: string, runId: string): string {
    return this.keys.key('cancel', threadId, runId);
  }

  /** JSON, so any id is carried as it is. */
  encodeCancel(signal: CancelSignal): string {
    return encodeCancelPayload(signal);
  }

  /** JSON, so any id is carried as it is. */
  encodeRunEnded(signal: RunEndedSignal): string {
    return encodeRunEndedPayload(signal);
  }

  /** The signal, or `undefined` for a payload this version cannot read. */
  decodeCancel(payload: string): CancelSignal | undefined {
    const message = parseSignalPayload(payload);
    return message && cancelOf(message);
  }

  /** The signal, or `undefined` for a payload this version cannot read. */
  decodeRunEnded(payload: string): RunEndedSignal | undefined {
    const message = parseSignalPayload(payload);
    return message && runEndedOf(message);
  }
}
