import type { CancelSignal, RunEndedSignal } from '../contracts/signal-bus.interface.js';
import {
  cancelOf,
  encodeCancelPayload,
  encodeRunEndedPayload,
  namesRun,
  parseSignalPayload,
  runEndedOf,
} from '../signals/signal-payloads.js';

/** PostgreSQL refuses a `NOTIFY` payload of 8000 bytes or more. */
export const NOTIFY_PAYLOAD_LIMIT_BYTES = 7_999;

/** A run's log grew: the nudge that wakes its followers on other instances. */
export interface LogAppendedSignal {
  /** The run's thread. */
  threadId: string;
  /** The run whose log grew. */
  runId: string;
  /** The id of the last event appended. */
  lastId: number;
}

/** What one notification asks of a listener. */
export type Notified =
  | { kind: 'cancel'; signal: CancelSignal }
  | { kind: 'run-ended'; signal: RunEndedSignal }
  | { kind: 'log'; signal: LogAppendedSignal }
  /** A cancel whose ids did not fit a payload: every listener re-reads the cancel table. */
  | { kind: 'resync' };

/**
 * The channels and payloads of the PostgreSQL signal bus, shared by every instance. Payloads
 * are ids only, JSON, far under `NOTIFY`'s limit; one that would not fit is not sent (see
 * `fits`). Changing them is a wire change: instances of different versions would stop hearing
 * each other.
 */
export class PostgresSignalWire {
  readonly cancelChannel: string;
  readonly runEndedChannel: string;
  readonly logChannel: string;

  /** @param prefix put before every channel name: lower-case letters, digits and `_`, e.g. `agent_`. */
  constructor(prefix: string) {
    this.cancelChannel = `${prefix}cancel`;
    this.runEndedChannel = `${prefix}run_ended`;
    this.logChannel = `${prefix}log`;
  }

  /** Every channel an instance listens on. */
  get channels(): string[] {
    return [this.cancelChannel, this.runEndedChannel, this.logChannel];
  }

  encodeCancel(signal: CancelSignal): string {
    return encodeCancelPayload(signal);
  }

  /** Sent instead of a cancel whose ids are too long for a payload; the cancel table holds the ids. */
  encodeResync(): string {
    return JSON.stringify({ resync: true });
  }

  encodeRunEnded(signal: RunEndedSignal): string {
    return encodeRunEndedPayload(signal);
  }

  encodeLogAppended({ threadId, runId, lastId }: LogAppendedSignal): string {
    return JSON.stringify({ threadId, runId, lastId });
  }

  /** True when `payload` can be sent: under the limit in UTF-8 bytes. */
  fits(payload: string): boolean {
    return Buffer.byteLength(payload, 'utf8') <= NOTIFY_PAYLOAD_LIMIT_BYTES;
  }

  /** What a notification says, or `undefined` for one this version cannot read. */
  decode(channel: string, payload: string): Notified | undefined {
    const message = parseSignalPayload(payload);
    if (!message) return undefined;
    if (channel === this.cancelChannel) {
      if (message.resync === true) return { kind: 'resync' };
      const signal = cancelOf(message);
      return signal && { kind: 'cancel', signal };
    }
    if (channel === this.runEndedChannel) {
      const signal = runEndedOf(message);
      return signal && { kind: 'run-ended', signal };
    }
    if (channel === this.logChannel && namesRun(message) && typeof message.lastId === 'number') {
      return {
        kind: 'log',
        signal: { threadId: message.threadId, runId: message.runId, lastId: message.lastId },
      };
    }
    return undefined;
  }
}
