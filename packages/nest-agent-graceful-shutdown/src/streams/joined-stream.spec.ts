import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventType, type BaseEvent } from '@ag-ui/core';
import { SseEventStream } from '../http/sse-event-stream.js';
import { InMemoryRunEventLog } from './in-memory-run-event-log.js';
import { JoinedStream, type RunLiveness } from './joined-stream.js';
import type { LoggedEvent, RunLogKey } from '../contracts/run-event-log.interface.js';
import { until } from '../testing/run-event-log-probes.js';

const run: RunLogKey = { threadId: 't1', runId: 'r1' };
const text = (id: number): LoggedEvent => ({
  id,
  event: { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'm1', delta: `d${id}` } as BaseEvent,
});
const finished = (id: number): LoggedEvent => ({
  id,
  event: { type: EventType.RUN_FINISHED, threadId: 't1', runId: 'r1' } as BaseEvent,
});
const started = (id: number): LoggedEvent => ({
  id,
  event: { type: EventType.RUN_STARTED, threadId: 't1', runId: 'r1' } as BaseEvent,
});
const interrupted = (id: number): LoggedEvent => ({
  id,
  event: {
    type: EventType.RUN_ERROR,
    code: 'RUN_INTERRUPTED',
    message: 'retry the same request',
  } as BaseEvent,
});
/** A run interrupted for its client (events 1 to 3) and continued by the client's retry (4 to 6). */
const twoAttempts = [started(1), text(2), interrupted(3), started(4), text(5), finished(6)];
/** The run has ended (or stopped for its client): a held terminal event is its end. */
const stopped: RunLiveness = { intervalMs: 20, check: async () => null };
const types = (frames: Array<{ event: BaseEvent }>) =>
  frames.map(({ event }) =>
    event.type === EventType.CUSTOM ? (event as { name?: string }).name : event.type,
  );

/** A log whose follow brings nothing, as a log whose live delivery stays on another instance. */
class DeafLog extends InMemoryRunEventLog {
  override follow(): () => void {
    return () => undefined;
  }
}

/** Serves one joined stream of `log` after `afterId` and returns the SSE ids the client read. */
async function join(
  log: InMemoryRunEventLog,
  afterId: number,
  liveness: RunLiveness,
  whileOpen: () => Promise<void>,
): Promise<number[]> {
  return (await joinFrames(log, afterId, liveness, whileOpen)).map((frame) => frame.id!);
}

/** Serves one joined stream of `log` after `afterId` and returns what the client read: each event with its SSE id, if any. */
async function joinFrames(
  log: InMemoryRunEventLog,
  afterId: number,
  liveness: RunLiveness,
  whileOpen: () => Promise<void>,
): Promise<Array<{ id?: number; event: BaseEvent }>> {
  const server: Server = createServer((_request, response) => {
    const stream = new JoinedStream(new SseEventStream(response), log, run, afterId, liveness);
    void log.read(run, afterId, 1_000).then((first) => stream.start(first ?? []));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const reading = response.text();
    await whileOpen();
    const body = await reading;
    return body
      .split('\n\n')
      .filter((frame) => frame.includes('data: '))
      .map((frame) => {
        const id = /^id: (\d+)$/m.exec(frame)?.[1];
        const event = JSON.parse(/^data: (.*)$/m.exec(frame)![1]) as BaseEvent;
        return id === undefined ? { event } : { id: Number(id), event };
      });
  } finally {
    server.close();
  }
}

describe('JoinedStream', () => {
  it('brings the events its follow did not deliver at the next liveness check, up to the terminal event', async () => {
    const log = new DeafLog();
    await log.append(run, [text(1), text(2)]);
    const liveness: RunLiveness = { intervalMs: 20, check: async () => undefined };

    const ids = await join(log, 0, liveness, () => log.append(run, [text(3), finished(4)]));

    expect(ids).toEqual([1, 2, 3, 4]);
  });

  it('ends, without a terminal event, a stream of a stopped run whose log now ends before its cursor', async () => {
    const log = new DeafLog();
    await log.append(run, [text(1), text(2), text(3)]);

    const ids = await join(log, 5, stopped, async () => undefined);

    expect(ids).toEqual([]);
  });

  it('waits, while the run goes on, for a log that fell behind its cursor, and goes on once its writer appended the lost events again', async () => {
    const log = new DeafLog();
    await log.append(run, [text(1), text(2), text(3)]);
    let checks = 0;
    const liveness: RunLiveness = { intervalMs: 20, check: async () => void checks++ };

    const ids = await join(log, 5, liveness, async () => {
      await until(() => checks >= 3, 'liveness checks of the log behind the cursor');
      await log.append(run, [text(4), text(5), text(6), finished(7)]);
    });

    expect(ids).toEqual([6, 7]);
  });

  it("replays a run its client retried as one sequence: one RUN_STARTED, the interrupted attempt as notices, the run's end last", async () => {
    const log = new InMemoryRunEventLog();
    await log.append(run, twoAttempts);

    const frames = await joinFrames(log, 0, stopped, async () => undefined);

    expect(frames.map((frame) => frame.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(types(frames)).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_CONTENT',
      'run_interrupted',
      'run_resumed',
      'TEXT_MESSAGE_CONTENT',
      'RUN_FINISHED',
    ]);
    expect(frames[2].event).toMatchObject({
      value: { code: 'RUN_INTERRUPTED', message: 'retry the same request' },
    });
  });

  it("continues a join after an event of the older attempt to the run's current end, with one terminal event", async () => {
    const log = new InMemoryRunEventLog();
    await log.append(run, twoAttempts);

    const frames = await joinFrames(log, 2, stopped, async () => undefined);

    expect(types(frames)).toEqual([
      'run_interrupted',
      'run_resumed',
      'TEXT_MESSAGE_CONTENT',
      'RUN_FINISHED',
    ]);
  });

  it('ends with RUN_INTERRUPTED, under its id, when nobody has continued the run', async () => {
    const log = new InMemoryRunEventLog();
    await log.append(run, twoAttempts.slice(0, 3));

    const frames = await joinFrames(log, 0, stopped, async () => undefined);

    expect(frames.at(-1)).toEqual(interrupted(3));
  });

  it('goes on past RUN_INTERRUPTED while the run goes on, to the events of the retry appended later', async () => {
    const log = new InMemoryRunEventLog();
    await log.append(run, twoAttempts.slice(0, 3));
    let retried = false;
    const retrying: RunLiveness = {
      intervalMs: 20,
      check: async () => (retried ? null : undefined),
    };

    const frames = await joinFrames(log, 0, retrying, async () => {
      await log.append(run, twoAttempts.slice(3));
      retried = true;
    });

    expect(types(frames)).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_CONTENT',
      'run_interrupted',
      'run_resumed',
      'TEXT_MESSAGE_CONTENT',
      'RUN_FINISHED',
    ]);
  });

  it('answers a join after the last event of a stopped run at once with the notice the run gives, without waiting an interval', async () => {
    const log = new InMemoryRunEventLog();
    await log.append(run, twoAttempts.slice(0, 3));
    const notice = {
      type: EventType.RUN_ERROR,
      code: 'RUN_INTERRUPTED',
      message: 'retry',
    } as BaseEvent;
    const liveness: RunLiveness = {
      intervalMs: 3_600_000,
      checkAtStart: true,
      check: async () => notice,
    };

    const frames = await joinFrames(log, 3, liveness, async () => undefined);

    expect(frames).toEqual([{ event: notice }]);
  });
});
