import { ConsoleLogger, type LoggerService } from '@nestjs/common';
import { EventLogger, LogEvent } from './event-logger.js';

/** What Nest's ConsoleLogger writes to stdout and stderr while `work` runs. */
function printed(work: () => void): { stdout: string; stderr: string } {
  const written = { stdout: '', stderr: '' };
  const spies = (['stdout', 'stderr'] as const).map((stream) =>
    jest.spyOn(process[stream], 'write').mockImplementation((chunk: string | Uint8Array) => {
      written[stream] += String(chunk);
      return true;
    }),
  );
  try {
    work();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return written;
}

/** A structured logger: keeps what it is given, as nestjs-pino copies an object message's properties. */
class StructuredLogger implements LoggerService {
  readonly lines: Record<string, unknown>[] = [];
  log = (message: object) => void this.lines.push({ level: 'log', ...message });
  warn = (message: object) => void this.lines.push({ level: 'warn', ...message });
  error = (message: object) => void this.lines.push({ level: 'error', ...message });
}

describe('EventLogger', () => {
  // Nest's default logger colours its lines unless NO_COLOR is set.
  const noColor = process.env.NO_COLOR;
  beforeAll(() => void (process.env.NO_COLOR = '1'));
  afterAll(() =>
    noColor === undefined ? delete process.env.NO_COLOR : void (process.env.NO_COLOR = noColor),
  );

  it("prints an event through Nest's default logger as one line: the message, then key=value per field", () => {
    const { stdout } = printed(() =>
      new EventLogger('RunStreamService').log('stream joined', {
        threadId: 't1',
        runId: 'r1',
        lastEventId: 0,
      }),
    );
    expect(stdout.split('\n')).toEqual([
      expect.stringMatching(
        / LOG \[RunStreamService\] stream joined threadId=t1 runId=r1 lastEventId=0$/,
      ),
      '',
    ]);
  });

  it('prints an error as one line on stderr, with no stack', () => {
    const { stdout, stderr } = printed(() =>
      new EventLogger('GracefulShutdown').error('shutdown failed', {
        signal: 'SIGTERM',
        error: 'store closed',
      }),
    );
    expect(stdout).toBe('');
    expect(stderr.split('\n')).toEqual([
      expect.stringMatching(
        / ERROR \[GracefulShutdown\] shutdown failed signal=SIGTERM error="store closed"$/,
      ),
      '',
    ]);
  });

  it("prints through a ConsoleLogger of the caller's own, one line per event", () => {
    const target = new ConsoleLogger('SignalBus', { colors: false });
    const { stdout } = printed(() => {
      const logger = new EventLogger(target);
      logger.warn('redis unavailable, cancel delivered on this instance only', {
        threadId: 't1',
        runId: 'r1',
      });
      logger.log('redis connection restored');
    });
    expect(stdout.split('\n')).toEqual([
      expect.stringMatching(
        / WARN \[SignalBus\] redis unavailable, cancel delivered on this instance only threadId=t1 runId=r1$/,
      ),
      expect.stringMatching(/ LOG \[SignalBus\] redis connection restored$/),
      '',
    ]);
  });

  it('hands a structured logger the message as msg and every field as a key, with its type', () => {
    const target = new StructuredLogger();
    new EventLogger(target).log('runs drained', {
      inFlight: 2,
      interrupted: 2,
      phaseMs: { drain: 12, close: 3 },
      reason: undefined,
    });
    expect(target.lines).toEqual([
      {
        level: 'log',
        msg: 'runs drained',
        inFlight: 2,
        interrupted: 2,
        phaseMs: { drain: 12, close: 3 },
      },
    ]);
  });
});

describe('LogEvent', () => {
  it('quotes a value with blanks, quotes, an equals sign or a line break, so one event stays one line', () => {
    const line = String(
      new LogEvent('run end not saved', {
        error: 'connect ECONNREFUSED\n  at x',
        id: 'a=b',
        empty: '',
      }),
    );
    expect(line).toBe('run end not saved error="connect ECONNREFUSED\\n  at x" id="a=b" empty=""');
  });

  it('names the values of a nested group with dotted keys, and prints lists as JSON', () => {
    const line = String(
      new LogEvent('runs drained', {
        phaseMs: { drain: 12, close: 3 },
        ids: ['c1', 'c2'],
        continuation: true,
        owner: null,
      }),
    );
    expect(line).toBe(
      'runs drained phaseMs.drain=12 phaseMs.close=3 ids=["c1","c2"] continuation=true owner=null',
    );
  });

  it('serialises to JSON as the message and its fields, leaving out the unset ones', () => {
    expect(
      JSON.stringify(
        new LogEvent('stream joined', { threadId: 't1', runId: undefined, lastEventId: 7 }),
      ),
    ).toBe('{"msg":"stream joined","threadId":"t1","lastEventId":7}');
  });
});
