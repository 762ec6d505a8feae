import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventType, type BaseEvent } from '@ag-ui/core';
import { SseEventStream } from '../http/sse-event-stream.js';
import { InMemoryRunEventLog } from './in-memory-run-event-log.js';
import { JoinedStream, type RunLiveness } from './joined-stream.js';
import type { LoggedEvent, RunLogKey } from '../contracts/run-event-log.interface.js';

const run: RunLogKey = { threadId: 't1', runId: 'r1' };
const text = (id: number): LoggedEvent => ({ id, event: { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'm1', delta: `d${id}` } as BaseEvent });
const finished = (id: number): LoggedEvent => ({ id, event: { type: EventType.RUN_FINISHED, threadId: 't1', runId: 'r1' } as BaseEvent });

/** A log whose follow brings nothing, as a log whose live delivery stays on another instance. */
class DeafLog extends InMemoryRunEventLog {
  override follow(): () => void {
    return () => undefined;
  }
}

/** Serves one joined stream of `log` after `afterId` and returns the SSE ids the client read. */
async function join(log: InMemoryRunEventLog, afterId: number, liveness: RunLiveness, whileOpen: () => Promise<void>): Promise<number[]> {
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
    return [...body.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
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

  it('ends, without a terminal event, a stream whose log now ends before its cursor', async () => {
    const log = new DeafLog();
    await log.append(run, [text(1), text(2), text(3)]);
    const liveness: RunLiveness = { intervalMs: 20, check: async () => undefined };

    const ids = await join(log, 5, liveness, async () => undefined);

    expect(ids).toEqual([]);
  });
});
