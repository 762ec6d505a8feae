import { inspect } from 'node:util';
import { Logger, type LoggerService } from '@nestjs/common';

/** A value of a log event's context: a primitive, a list, or one level of named numbers (`phaseMs`). */
export type LogValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number)[]
  | Readonly<Record<string, string | number | boolean | undefined>>;

/** A log event's context: flat fields such as `threadId`, `runId`, `phase`. */
export type LogFields = Readonly<Record<string, LogValue>>;

// A string printed as it is; any other is quoted (JSON), so a value never spills into the next field or line.
const BARE = /^[^\s"=\\\p{Cc}]+$/u;

function formatValue(value: Exclude<LogValue, undefined>): string {
  if (typeof value === 'string') return BARE.test(value) ? value : JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  return JSON.stringify(value);
}

function formatPairs(key: string, value: LogValue): string[] {
  if (value === undefined) return [];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, LogValue>).flatMap(([name, inner]) =>
      formatPairs(`${key}.${name}`, inner),
    );
  }
  return [`${key}=${formatValue(value)}`];
}

/**
 * One event of the library's logs: a short lower-case message (`msg`) and its context as own
 * properties. A structured logger keeps them as keys (nestjs-pino copies an object message's
 * properties into its JSON line: `{"msg":"stream joined","threadId":"t1",…}`); Nest's
 * `ConsoleLogger`, which prints any other object with `util.inspect`, prints one line:
 * `stream joined threadId=t1 runId=r1 lastEventId=0`.
 */
export class LogEvent {
  readonly msg: string;

  constructor(msg: string, fields: LogFields = {}) {
    this.msg = msg;
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined && key !== 'msg')
        Object.defineProperty(this, key, { value, enumerable: true });
    }
  }

  /** The event as one line: the message, then `key=value` per field (nested names dotted: `phaseMs.drain=12`). */
  toString(): string {
    const { msg, ...fields } = this as unknown as Record<string, LogValue>;
    const pairs = Object.entries(fields).flatMap(([key, value]) => formatPairs(key, value));
    return [String(msg).replace(/\s*[\r\n]+\s*/g, ' '), ...pairs].join(' ');
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/**
 * The library's logger: every event goes through Nest's `Logger` (so `app.useLogger`, log levels
 * and the boot-time buffer apply), or through the `LoggerService` an adapter was given, as one
 * {@link LogEvent}: a message and a flat context, one line under the default logger.
 *
 * @example
 * const logger = new EventLogger('RunStreamService');
 * logger.log('stream joined', { threadId, runId, lastEventId }); // stream joined threadId=t1 runId=r1 lastEventId=0
 */
export class EventLogger {
  private readonly target: LoggerService;

  /** @param target the context name of a Nest `Logger`, or a logger of the caller's own. */
  constructor(target: string | LoggerService) {
    this.target = typeof target === 'string' ? new Logger(target) : target;
  }

  log(msg: string, fields?: LogFields): void {
    this.target.log(new LogEvent(msg, fields));
  }

  warn(msg: string, fields?: LogFields): void {
    this.target.warn(new LogEvent(msg, fields));
  }

  /** An error the service goes on after: its message is a field (`error`); no stack, which would only name this logger's caller. */
  error(msg: string, fields?: LogFields): void {
    this.target.error(new LogEvent(msg, fields));
  }

  debug(msg: string, fields?: LogFields): void {
    this.target.debug?.(new LogEvent(msg, fields));
  }
}
