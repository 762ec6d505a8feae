import type { AgentSubscriber, BaseEvent, Message } from '@ag-ui/client';
import { waitFor } from 'dev-services';
import { EventGapError } from './event-gap.error.js';
import { ReconnectTimeoutError } from './reconnect-timeout.error.js';
import { ResumableHttpAgent } from './resumable-http-agent.js';
import type { ReconnectInfo, ResumableHttpAgentConfig } from './resumable-http-agent-config.js';
import { RunRequestError } from './run-request.error.js';
import {
  numbered,
  refuse,
  ScriptedRunServer,
  stream,
  textMessage,
} from './scripted-run-server.fixtures.js';

const THREAD = 'thread-1';
const RUN = 'run-1';
const started = { type: 'RUN_STARTED', threadId: THREAD, runId: RUN };
const finished = { type: 'RUN_FINISHED', threadId: THREAD, runId: RUN };
const interrupted = {
  type: 'RUN_ERROR',
  message: 'the service is shutting down; send the same request again',
  code: 'RUN_INTERRUPTED',
};
const handover = {
  type: 'CUSTOM',
  name: 'handover',
  value: { threadId: THREAD, runId: RUN, lastEventId: 3 },
};
/** The whole run: RUN_STARTED (1), "Hello world" (2..5), RUN_FINISHED (6). */
const wholeRun = numbered(1, [started, ...textMessage('a1', 'Hello ', 'world'), finished]);
const HELLO_WORLD = [['a1', 'assistant', 'Hello world']];

let server: ScriptedRunServer;
beforeEach(async () => (server = await ScriptedRunServer.start()));
afterEach(async () => {
  jest.restoreAllMocks();
  await server.close();
});

function agentFor(config: Partial<ResumableHttpAgentConfig> = {}): ResumableHttpAgent {
  return new ResumableHttpAgent({
    url: server.runsUrl,
    headers: { Authorization: 'Bearer token-1' },
    threadId: THREAD,
    initialMessages: [{ id: 'u1', role: 'user', content: 'say hello' }],
    reconnect: { timeoutMs: 5_000, initialDelayMs: 20, maxDelayMs: 100 },
    ...config,
  });
}

/** A subscriber recording every event the agent's subscribers are handed. */
function recorder(): { events: BaseEvent[]; subscriber: AgentSubscriber } {
  const events: BaseEvent[] = [];
  return { events, subscriber: { onEvent: ({ event }) => void events.push(event) } };
}

function summary(messages: Message[]): unknown[] {
  return messages.map((m) => [m.id, m.role, m.content]);
}

/** `runAgent` logs the error of a failed run with `console.error` before rejecting; kept out of the test output. */
function quietFailures(): void {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
}

describe('ResumableHttpAgent', () => {
  it('delivers events k+1 to the terminal event exactly once when the POST is cut after event k and the join resumes from Last-Event-ID k', async () => {
    server.answer(stream(wholeRun.slice(0, 3), 'destroy'), stream(wholeRun.slice(3)));
    const agent = agentFor();
    const { events, subscriber } = recorder();

    const { newMessages } = await agent.runAgent({ runId: RUN }, subscriber);

    expect(summary(newMessages)).toEqual(HELLO_WORLD);
    expect(events.map((e) => e.type)).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    const join = server.requests[1];
    expect([join.method, join.url]).toEqual(['GET', `/v1/runs/${THREAD}/stream?runId=${RUN}`]);
    expect(join.headers).toMatchObject({ 'last-event-id': '3', authorization: 'Bearer token-1' });
    expect(agent.stats).toMatchObject({
      joins: 1,
      resends: 0,
      handovers: 0,
      interruptedRetries: 0,
    });
  });

  it('sends its multitask strategy in the POST query only, the join keeping its own URL', async () => {
    server.answer(stream(wholeRun.slice(0, 3), 'destroy'), stream(wholeRun.slice(3)));
    const agent = agentFor({ multitask: 'interrupt' });

    await agent.runAgent({ runId: RUN });

    expect(server.requests.map((request) => [request.method, request.url])).toEqual([
      ['POST', '/v1/runs?multitask=interrupt'],
      ['GET', `/v1/runs/${THREAD}/stream?runId=${RUN}`],
    ]);
  });

  it('joins after a handover notice and never hands the notice to the subscribers', async () => {
    server.answer(
      stream([...wholeRun.slice(0, 3), { notice: handover }]),
      stream(wholeRun.slice(3)),
    );
    const reconnects: ReconnectInfo[] = [];
    const agent = agentFor({ onReconnect: (info) => void reconnects.push(info) });
    const { events, subscriber } = recorder();

    const { newMessages } = await agent.runAgent({ runId: RUN }, subscriber);

    expect(summary(newMessages)).toEqual(HELLO_WORLD);
    expect(events.some((e) => e.type === 'CUSTOM')).toBe(false);
    expect(reconnects).toEqual([{ kind: 'handover', lastEventId: 3, attempt: 1 }]);
    expect(server.requests[1].headers['last-event-id']).toBe('3');
    expect(agent.stats).toMatchObject({ handovers: 1, joins: 1, resends: 0 });
  });

  it('retries a dropped join after the wait a 503 named in Retry-After', async () => {
    server.answer(
      stream(wholeRun.slice(0, 2), 'destroy'),
      refuse(503, 'SHUTTING_DOWN', 'this instance is shutting down', 1),
      stream(wholeRun.slice(2)),
    );
    const reconnects: ReconnectInfo[] = [];
    const agent = agentFor({ onReconnect: (info) => void reconnects.push(info) });

    const { newMessages } = await agent.runAgent({ runId: RUN });

    expect(summary(newMessages)).toEqual(HELLO_WORLD);
    expect(reconnects).toEqual([
      { kind: 'dropped', lastEventId: 2, attempt: 1 },
      { kind: 'dropped', lastEventId: 2, attempt: 2 },
    ]);
    expect(server.requests[2].at - server.requests[1].at).toBeGreaterThanOrEqual(950);
    expect(server.requests[2].headers['last-event-id']).toBe('2');
    expect(agent.stats).toMatchObject({ joins: 2, resends: 0 });
  });

  it('resends the POST after the wait a 503 SHUTTING_DOWN named in Retry-After', async () => {
    server.answer(
      refuse(503, 'SHUTTING_DOWN', 'this instance is shutting down', 1),
      stream(wholeRun),
    );
    const reconnects: ReconnectInfo[] = [];
    const agent = agentFor({ onReconnect: (info) => void reconnects.push(info) });

    const { newMessages } = await agent.runAgent({ runId: RUN });

    expect(summary(newMessages)).toEqual(HELLO_WORLD);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(server.requests[1].at - server.requests[0].at).toBeGreaterThanOrEqual(950);
    expect(reconnects).toEqual([{ kind: 'resend', lastEventId: 0, attempt: 1 }]);
    expect(agent.stats).toMatchObject({ resends: 1, joins: 0 });
  });

  it('treats a connection silent for idleTimeoutMs as dropped and re-joins', async () => {
    server.answer(stream(wholeRun.slice(0, 3), 'keep-open'), stream(wholeRun.slice(3)));
    const agent = agentFor({ reconnect: { idleTimeoutMs: 250 } });

    const { newMessages } = await agent.runAgent({ runId: RUN });

    expect(summary(newMessages)).toEqual(HELLO_WORLD);
    expect(server.requests[1].headers['last-event-id']).toBe('3');
    // Cut after the configured silence, not the default 45 s.
    const silentForMs = server.requests[1].at - server.requests[0].at;
    expect(silentForMs).toBeGreaterThanOrEqual(240);
    expect(silentForMs).toBeLessThan(2_000);
  });

  it('joins the run instead of resending when the POST is answered 409 RUN_IN_PROGRESS', async () => {
    server.answer(
      refuse(409, 'RUN_IN_PROGRESS', `thread ${THREAD} already has an active run (${RUN})`),
      stream(wholeRun),
    );
    const agent = agentFor();

    const { newMessages } = await agent.runAgent({ runId: RUN });

    expect(summary(newMessages)).toEqual(HELLO_WORLD);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
    expect(server.requests[1].headers['last-event-id']).toBeUndefined();
    expect(agent.stats).toMatchObject({ joins: 1, resends: 0 });
  });

  it('resends the same POST once when it delivered no event and the join answers 404', async () => {
    server.answer(
      stream([{ comment: 'heartbeat' }], 'destroy'),
      refuse(404, 'RUN_NOT_FOUND', `run ${RUN} not found`),
      stream(wholeRun),
    );
    const reconnects: ReconnectInfo[] = [];
    const agent = agentFor({ onReconnect: (info) => void reconnects.push(info) });

    const { newMessages } = await agent.runAgent({ runId: RUN });

    expect(summary(newMessages)).toEqual(HELLO_WORLD);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'POST']);
    expect(server.requests[2].body).toBe(server.requests[0].body);
    expect(reconnects.map((r) => r.kind)).toEqual(['dropped', 'resend']);
    expect(agent.stats).toMatchObject({ joins: 1, resends: 1 });
  });

  it('resends a RUN_INTERRUPTED run transparently, hiding its RUN_ERROR and the repeated RUN_STARTED', async () => {
    const firstPart = numbered(1, [started, ...textMessage('a1', 'step 1 done'), interrupted]);
    const secondPart = numbered(6, [started, ...textMessage('a2', 'step 2 done'), finished]);
    server.answer(stream(firstPart), stream(secondPart));
    const reconnects: ReconnectInfo[] = [];
    const agent = agentFor({ onReconnect: (info) => void reconnects.push(info) });
    const { events, subscriber } = recorder();

    const { newMessages } = await agent.runAgent({ runId: RUN }, subscriber);

    expect(summary(newMessages)).toEqual([
      ['a1', 'assistant', 'step 1 done'],
      ['a2', 'assistant', 'step 2 done'],
    ]);
    expect(events.filter((e) => e.type === 'RUN_STARTED')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'RUN_ERROR')).toHaveLength(0);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(server.requests[1].body).toBe(server.requests[0].body);
    expect(reconnects).toEqual([{ kind: 'interrupted', lastEventId: 5, attempt: 1 }]);
    expect(agent.stats).toMatchObject({ interruptedRetries: 1, resends: 0, joins: 0 });
  });

  it('resends the POST at once, without waiting initialDelayMs, when a join ends with RUN_INTERRUPTED', async () => {
    const firstPart = numbered(1, [started, ...textMessage('a1', 'step 1 done')]);
    const secondPart = numbered(5, [started, ...textMessage('a2', 'step 2 done'), finished]);
    server.answer(
      stream(firstPart.slice(0, 3), 'destroy'),
      stream([...firstPart.slice(3), { notice: interrupted }]),
      stream(secondPart),
    );
    const reconnects: ReconnectInfo[] = [];
    // A wait of initialDelayMs would pass the outage's deadline: the resend must not wait.
    const reconnect = { timeoutMs: 5_000, initialDelayMs: 60_000, maxDelayMs: 60_000 };
    const agent = agentFor({ reconnect, onReconnect: (info) => void reconnects.push(info) });
    const { events, subscriber } = recorder();

    const { newMessages } = await agent.runAgent({ runId: RUN }, subscriber);

    expect(summary(newMessages)).toEqual([
      ['a1', 'assistant', 'step 1 done'],
      ['a2', 'assistant', 'step 2 done'],
    ]);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'POST']);
    expect(reconnects.map((r) => r.kind)).toEqual(['dropped', 'interrupted']);
    expect(events.filter((e) => e.type === 'RUN_ERROR')).toHaveLength(0);
    expect(agent.stats).toMatchObject({ joins: 1, interruptedRetries: 1 });
  });

  it('hides the run_interrupted and run_resumed notices a join reads earlier attempts as, as it hides those events live', async () => {
    const attemptEnd = {
      type: 'CUSTOM',
      name: 'run_interrupted',
      value: { code: 'RUN_INTERRUPTED', message: interrupted.message },
    };
    const attemptStart = {
      type: 'CUSTOM',
      name: 'run_resumed',
      value: { threadId: THREAD, runId: RUN },
    };
    const log = numbered(1, [
      started,
      ...textMessage('a1', 'step 1 done'),
      attemptEnd,
      attemptStart,
      ...textMessage('a2', 'step 2 done'),
      finished,
    ]);
    server.answer(stream(log.slice(0, 3), 'destroy'), stream(log.slice(3)));
    const agent = agentFor();
    const { events, subscriber } = recorder();

    await agent.runAgent({ runId: RUN }, subscriber);

    expect(events.map((e) => e.type)).toEqual([
      'RUN_STARTED',
      ...['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END'],
      ...['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END'],
      'RUN_FINISHED',
    ]);
    expect(agent.stats).toMatchObject({ joins: 1, interruptedRetries: 0 });
  });

  it('delivers RUN_INTERRUPTED and sends nothing more when retryInterrupted is false', async () => {
    server.answer(stream(numbered(1, [started, ...textMessage('a1', 'step 1 done'), interrupted])));
    const agent = agentFor({ retryInterrupted: false });
    const { events, subscriber } = recorder();

    const { newMessages } = await agent.runAgent({ runId: RUN }, subscriber);

    expect(summary(newMessages)).toEqual([['a1', 'assistant', 'step 1 done']]);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
    expect(server.requests).toHaveLength(1);
  });

  it('drops the events whose id was already delivered', async () => {
    server.answer(stream(wholeRun.slice(0, 4), 'end'), stream(wholeRun.slice(1)));
    const agent = agentFor();
    const { events, subscriber } = recorder();

    const { newMessages } = await agent.runAgent({ runId: RUN }, subscriber);

    expect(summary(newMessages)).toEqual(HELLO_WORLD);
    expect(events).toHaveLength(wholeRun.length);
    expect(agent.stats.duplicatesDropped).toBe(3);
  });

  it('re-joins from the last event when an id is skipped once', async () => {
    server.answer(
      stream([...wholeRun.slice(0, 2), wholeRun[4]], 'keep-open'),
      stream(wholeRun.slice(2)),
    );
    const agent = agentFor();

    const { newMessages } = await agent.runAgent({ runId: RUN });

    expect(summary(newMessages)).toEqual(HELLO_WORLD);
    expect(server.requests[1].headers['last-event-id']).toBe('2');
  });

  it('fails the run with an EventGapError when the re-joined stream skips the same events again', async () => {
    server.answer(
      stream([...wholeRun.slice(0, 2), wholeRun[4]], 'keep-open'),
      stream(wholeRun.slice(4)),
    );
    quietFailures();
    const agent = agentFor();

    const failure = await agent.runAgent({ runId: RUN }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(EventGapError);
    expect(failure).toMatchObject({ code: 'EVENT_GAP', lastEventId: 2, receivedId: 5 });
    expect((failure as Error).message).toContain('after event 2 came event 5');
    expect(summary(agent.messages.slice(1))).toEqual([['a1', 'assistant', '']]);
    expect(server.requests).toHaveLength(2);
  });

  it('fails the run with a ReconnectTimeoutError naming the last failure once the reconnect deadline passes', async () => {
    server.answer(stream(wholeRun.slice(0, 5), 'destroy'));
    server.fallback = refuse(503, 'SHUTTING_DOWN', 'this instance is shutting down');
    quietFailures();
    const agent = agentFor({ reconnect: { timeoutMs: 500, initialDelayMs: 10, maxDelayMs: 40 } });

    const failure = await agent.runAgent({ runId: RUN }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ReconnectTimeoutError);
    expect((failure as Error).message).toMatch(
      /within 500 ms \(last event id 5\).*503 SHUTTING_DOWN/,
    );
    expect(summary(agent.messages.slice(1))).toEqual(HELLO_WORLD);
    expect(agent.stats.joins).toBeGreaterThanOrEqual(1);
  });

  it('fails the run with a RunRequestError when the join is refused for good', async () => {
    server.answer(
      stream(wholeRun.slice(0, 2), 'destroy'),
      refuse(403, 'THREAD_ACCESS_DENIED', 'thread belongs to another user'),
    );
    quietFailures();
    const agent = agentFor();

    const failure = await agent.runAgent({ runId: RUN }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(RunRequestError);
    expect(failure).toMatchObject({ status: 403, code: 'THREAD_ACCESS_DENIED' });
    expect(summary(agent.messages.slice(1))).toEqual([['a1', 'assistant', '']]);
    expect(server.requests).toHaveLength(2);
  });

  it('stops a pending reconnect at once when abortRun() is called, leaving no timer behind', async () => {
    server.answer(
      stream(wholeRun.slice(0, 5), 'destroy'),
      refuse(503, 'SHUTTING_DOWN', 'this instance is shutting down', 30),
    );
    const reconnects: ReconnectInfo[] = [];
    const agent = agentFor({
      reconnect: { timeoutMs: 60_000 },
      onReconnect: (info) => void reconnects.push(info),
    });

    const running = agent.runAgent({ runId: RUN });
    await waitFor(
      () => reconnects.length === 2,
      'the reconnect that waits for Retry-After',
      5_000,
      5,
    );
    const timersWhileWaiting = activeTimers();
    const abortedAt = Date.now();
    agent.abortRun();
    const { newMessages } = await running;

    expect(Date.now() - abortedAt).toBeLessThan(1_000);
    expect(summary(newMessages)).toEqual(HELLO_WORLD);
    expect(agent.isRunning).toBe(false);
    expect(activeTimers()).toBeLessThan(timersWhileWaiting);
    expect(server.requests).toHaveLength(2);
  });
});

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}
