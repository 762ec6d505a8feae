import type { CancelSignal, RunEndedSignal } from '../contracts/signal-bus.interface';

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

  encodeCancel({ threadId, runId, requestedAt }: CancelSignal): string {
    return JSON.stringify(requestedAt === undefined ? { threadId, runId } : { threadId, runId, requestedAt });
  }

  /** Sent instead of a cancel whose ids are too long for a payload; the cancel table holds the ids. */
  encodeResync(): string {
    return JSON.stringify({ resync: true });
  }

  encodeRunEnded({ threadId, runId, status, stopReason }: RunEndedSignal): string {
    return JSON.stringify({ threadId, runId, status, stopReason });
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
    const message = parse(payload);
    if (!message) return undefined;
    if (channel === this.cancelChannel) {
      if (message.resync === true) return { kind: 'resync' };
      if (!isRun(message)) return undefined;
      const { threadId, runId, requestedAt } = message;
      return { kind: 'cancel', signal: typeof requestedAt === 'number' ? { threadId, runId, requestedAt } : { threadId, runId } };
    }
    if (!isRun(message)) return undefined;
    const { threadId, runId } = message;
    if (channel === this.runEndedChannel && typeof message.status === 'string' && typeof message.stopReason === 'string') {
      // Status and reason are passed on as sent: a newer instance may know values this one does not.
      return { kind: 'run-ended', signal: { threadId, runId, status: message.status, stopReason: message.stopReason } as RunEndedSignal };
    }
    if (channel === this.logChannel && typeof message.lastId === 'number') return { kind: 'log', signal: { threadId, runId, lastId: message.lastId } };
    return undefined;
  }
}

type Message = Record<string, unknown>;

function parse(payload: string): Message | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    return typeof value === 'object' && value !== null ? (value as Message) : undefined;
  } catch {
    return undefined;
  }
}

function isRun(message: Message): message is Message & { threadId: string; runId: string } {
  return typeof message.threadId === 'string' && typeof message.runId === 'string';
}
