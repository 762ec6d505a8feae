import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { joinRun, startRun, type RunStream } from './support/sse';
import { waitFor } from 'dev-services';

const alice = tokenFor('alice');
const bob = tokenFor('bob');
const TERMINAL = ['RUN_FINISHED', 'RUN_ERROR'];

/** POSTs a run and cuts the connection once `k` events arrived; returns what the client saw. */
async function runCutAt(service: ServiceProcess, threadId: string, k: number): Promise<RunStream> {
  const stream = await startRun(
    service.baseUrl,
    alice,
    runInput(threadId, 'run-1', [{ id: `${threadId}-u1`, content: 'do the steps' }]),
  );
  await waitFor(() => stream.frames.length >= k, `${k} events of the run`);
  stream.cut();
  await stream.done;
  return stream;
}

async function threadStatus(service: ServiceProcess, threadId: string) {
  return (await api(service.baseUrl, `/v1/threads/${threadId}`, { token: alice })).body;
}

describe('joining a run stream', () => {
  const services = new ServiceGroup();
  let service: ServiceProcess;

  beforeAll(async () => {
    service = await services.start({
      env: { DEMO_STEPS: '3', DEMO_REASONING_MS: '150', DEMO_TOOL_MS: '150' },
    });
  });
  afterAll(() => services.stopAll());

  it('replays the events after a cut at event k, then follows the live run to its terminal event, each exactly once', async () => {
    const cut = await runCutAt(service, 'join-cut', 5);
    const k = cut.frames[4].id!;

    const joined = await joinRun(service.baseUrl, alice, 'join-cut', { lastEventId: k });

    expect(joined.status).toBe(200);
    expect((await joined.terminal())?.type).toBe('RUN_FINISHED');
    const ids = joined.frames.map((frame) => frame.id);
    expect(ids).toEqual(ids.map((_, index) => k + 1 + index));
    const whole = await joinRun(service.baseUrl, alice, 'join-cut', { runId: 'run-1' });
    await whole.done;
    expect(whole.frames.map((frame) => frame.id)).toEqual(
      whole.frames.map((_, index) => index + 1),
    );
    expect(whole.frames.slice(0, k)).toEqual(cut.frames.slice(0, k));
    expect(whole.frames.slice(k)).toEqual(joined.frames);
    expect(whole.events.filter((event) => TERMINAL.includes(event.type))).toHaveLength(1);
  });

  it('lets the run finish after its client went away, by default', async () => {
    await runCutAt(service, 'join-gone', 2);

    const status = await waitFor(async () => {
      const body = await threadStatus(service, 'join-gone');
      return body.status === 'idle' ? body : undefined;
    }, 'the run to finish without its client');
    expect(status.lastRun).toMatchObject({ runId: 'run-1', status: 'completed' });
  });

  it('joins the active run when no runId is given, with the last id as a query parameter', async () => {
    const post = await startRun(
      service.baseUrl,
      alice,
      runInput('join-active', 'run-1', [{ id: 'active-u1', content: 'go' }]),
    );
    await waitFor(() => post.frames.length >= 3, 'three events');

    const joined = await joinRun(service.baseUrl, alice, 'join-active', {
      lastEventId: 2,
      as: 'query',
    });

    expect((await joined.terminal())?.type).toBe('RUN_FINISHED');
    expect(joined.frames[0].id).toBe(3);
    await post.done;
    expect(joined.frames).toEqual(post.frames.slice(2));
  });

  it('replays a run that already ended and closes after its terminal event', async () => {
    await runCutAt(service, 'join-ended', 1);
    await waitFor(
      async () => (await threadStatus(service, 'join-ended')).status === 'idle',
      'the run to end',
    );

    const joined = await joinRun(service.baseUrl, alice, 'join-ended', { lastEventId: 0 });

    await joined.done;
    expect(joined.frames[0]).toMatchObject({
      id: 1,
      event: { type: 'RUN_STARTED', runId: 'run-1' },
    });
    expect(joined.frames.at(-1)?.event.type).toBe('RUN_FINISHED');
  });

  it("answers 403 for another user's thread, 404 for an unknown thread or run, and 400 INVALID_EVENT_ID naming a Last-Event-ID that is no event id", async () => {
    await runCutAt(service, 'join-refused', 1);

    const other = await api(service.baseUrl, '/v1/runs/join-refused/stream', { token: bob });
    const noThread = await api(service.baseUrl, '/v1/runs/nobody-here/stream', { token: alice });
    const noRun = await api(service.baseUrl, '/v1/runs/join-refused/stream?runId=run-404', {
      token: alice,
    });
    const badId = await api(service.baseUrl, '/v1/runs/join-refused/stream', {
      token: alice,
      headers: { 'last-event-id': 'seven' },
    });
    const notIds = await Promise.all(
      ['abc', '-1', '1.5', '9007199254740992'].map((id) =>
        api(service.baseUrl, '/v1/runs/join-refused/stream', {
          token: alice,
          headers: { 'last-event-id': id },
        }),
      ),
    );
    const notIdQuery = await api(service.baseUrl, '/v1/runs/join-refused/stream?lastEventId=abc', {
      token: alice,
    });

    expect(other).toMatchObject({ status: 403, body: { code: 'THREAD_FORBIDDEN' } });
    expect(noThread).toMatchObject({ status: 404, body: { code: 'THREAD_NOT_FOUND' } });
    expect(noRun).toMatchObject({ status: 404, body: { code: 'RUN_NOT_FOUND' } });
    expect(badId.status).toBe(400);
    expect(badId.body.message).toContain('Last-Event-ID');
    for (const answer of notIds) {
      expect(answer).toMatchObject({
        status: 400,
        body: {
          statusCode: 400,
          code: 'INVALID_EVENT_ID',
          message: expect.stringMatching(/^Last-Event-ID: /),
        },
      });
    }
    expect(notIdQuery).toMatchObject({
      status: 400,
      body: { code: 'INVALID_EVENT_ID', message: expect.stringMatching(/^lastEventId: /) },
    });
  });
});

describe('a run stream past its retention', () => {
  const services = new ServiceGroup();
  afterAll(() => services.stopAll());

  it('answers 410 STREAM_EXPIRED once the log was evicted after STREAM_RETENTION_MS', async () => {
    const service = await services.start({
      env: {
        STREAM_RETENTION_MS: '500',
        DEMO_STEPS: '1',
        DEMO_REASONING_MS: '50',
        DEMO_TOOL_MS: '50',
      },
    });
    const post = await startRun(
      service.baseUrl,
      alice,
      runInput('join-expired', 'run-1', [{ id: 'expired-u1', content: 'go' }]),
    );
    await post.done;

    const gone = await waitFor(async () => {
      const answer = await api(service.baseUrl, '/v1/runs/join-expired/stream?runId=run-1', {
        token: alice,
      });
      return answer.status === 410 ? answer : undefined;
    }, 'the log to be evicted');

    expect(gone.body).toMatchObject({ statusCode: 410, code: 'STREAM_EXPIRED' });
    expect(gone.body.message).toContain('/v1/threads/join-expired/messages');
  });
});

describe('RUN_ON_DISCONNECT=cancel', () => {
  const services = new ServiceGroup();
  afterAll(() => services.stopAll());

  it('stops the run as a user cancel when its client goes away, and its log ends with RUN_CANCELED', async () => {
    const service = await services.start({
      env: {
        RUN_ON_DISCONNECT: 'cancel',
        DEMO_STEPS: '3',
        DEMO_REASONING_MS: '300',
        DEMO_TOOL_MS: '300',
      },
    });

    await runCutAt(service, 'join-cancel', 2);

    const status = await waitFor(async () => {
      const body = await threadStatus(service, 'join-cancel');
      return body.lastRun?.status === 'canceled' ? body : undefined;
    }, 'the run to be canceled');
    expect(status).toMatchObject({ status: 'idle', interrupt: null });
    const joined = await joinRun(service.baseUrl, alice, 'join-cancel');
    expect(await joined.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_CANCELED' });
  });
});

describe('a run stream across a restart of the one instance (client resume)', () => {
  const services = new ServiceGroup();
  afterAll(() => services.stopAll());

  it("continues the run's ids on the client's retry after RUN_INTERRUPTED, and a join replays both attempts as one run", async () => {
    const env = {
      SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '10000',
      DEMO_STEPS: '3',
      DEMO_REASONING_MS: '200',
      DEMO_TOOL_MS: '300',
    };
    const first = await services.start({ env });
    const input = runInput('join-restart', 'run-1', [
      { id: 'restart-u1', content: 'do the steps' },
    ]);
    const before = await startRun(first.baseUrl, alice, input);
    await before.waitForEvent((event) => event.type === 'TOOL_CALL_RESULT', 'a first tool result');
    first.kill('SIGTERM');
    expect(await before.terminal()).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
    expect((await first.waitForExit()).code).toBe(0);
    const second = await services.restart(first);

    const retry = await startRun(second.baseUrl, alice, input);

    expect((await retry.terminal())?.type).toBe('RUN_FINISHED');
    const lastBefore = before.frames.at(-1)!.id!;
    expect(retry.frames.find((frame) => frame.id !== undefined)?.id).toBe(lastBefore + 1);
    const whole = await joinRun(second.baseUrl, alice, 'join-restart', { lastEventId: 0 });
    await whole.done;
    expect(whole.frames.map((frame) => frame.id)).toEqual(
      whole.frames.map((_, index) => index + 1),
    );
    expect(whole.frames.at(lastBefore - 1)?.event).toMatchObject({
      type: 'CUSTOM',
      name: 'run_interrupted',
      value: { code: 'RUN_INTERRUPTED' },
    });
    expect(whole.frames.at(lastBefore)?.event).toMatchObject({
      type: 'CUSTOM',
      name: 'run_resumed',
    });
    expect(
      whole.events.filter((event) => event.type === 'RUN_STARTED' || event.type === 'RUN_ERROR'),
    ).toHaveLength(1);
    expect(whole.events.at(-1)?.type).toBe('RUN_FINISHED');
  });
});
