import { HttpAgent, type AgentSubscriber, type Message, type RunErrorEvent } from '@ag-ui/client';
import { ResumableHttpAgent } from 'nest-agent-graceful-shutdown/client';
import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import { ServiceProcess } from './support/service-process';
import { FINISHED_RUN, joinRun, runShape, startRun } from './support/sse';
import { waitFor } from 'dev-services';

const token = tokenFor('carol');

function agentFor(baseUrl: string, threadId: string, initialMessages: Message[]): HttpAgent {
  return new HttpAgent({
    url: `${baseUrl}/v1/runs`,
    headers: { Authorization: `Bearer ${token}` },
    threadId,
    initialMessages,
  });
}

async function storedMessages(
  baseUrl: string,
  threadId: string,
): Promise<Array<{ id: string; role: string; content: string }>> {
  const { status, body } = await api(baseUrl, `/v1/threads/${threadId}/messages`, { token });
  expect(status).toBe(200);
  return body.messages;
}

describe('the @ag-ui/client HttpAgent on a completed run', () => {
  let service: ServiceProcess;
  let agent: HttpAgent;
  let result: Awaited<ReturnType<HttpAgent['runAgent']>>;
  const runErrors: RunErrorEvent[] = [];

  beforeAll(async () => {
    service = await ServiceProcess.start();
    agent = agentFor(service.baseUrl, 'thread-client', [
      { id: 'client-u1', role: 'user', content: 'do the steps' },
    ]);
    result = await agent.runAgent(
      { runId: 'run-1' },
      { onRunErrorEvent: ({ event }) => void runErrors.push(event) },
    );
  });
  afterAll(() => service?.stop());

  it('resolves runAgent without a run error', () => {
    expect(runErrors).toEqual([]);
    expect(agent.isRunning).toBe(false);
  });

  it('puts the assistant answer and the tool results into the new messages', () => {
    const answer = result.newMessages.filter(
      (m) => m.role === 'assistant' && typeof m.content === 'string' && m.content !== '',
    );
    expect(answer.map((m) => m.content)).toEqual(['All 3 steps are done for: do the steps']);
    const tools = result.newMessages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual(['step 1 done', 'step 2 done', 'step 3 done']);
  });

  it('holds every message under the id the server stored it with', async () => {
    const stored = await storedMessages(service.baseUrl, 'thread-client');
    expect(agent.messages.map((m) => [m.id, m.role])).toEqual(stored.map((m) => [m.id, m.role]));
  });
});

describe('the @ag-ui/client HttpAgent on a run interrupted by SIGTERM', () => {
  const services = new ServiceGroup();
  const runErrors: RunErrorEvent[] = [];
  const failures: unknown[] = [];
  const userMessage = { id: 'client-stop-u1', role: 'user' as const, content: 'do the steps' };
  let agent: HttpAgent;
  let rejection: unknown;
  /** The restarted service that resumed the run. */
  let resumed: ServiceProcess;
  /** A ResumableHttpAgent's run on another thread, stopped by the same SIGTERM: one runAgent call to its end. */
  let resumable: ResumableHttpAgent;
  let resumableRun: Promise<unknown>;

  beforeAll(async () => {
    const first = await services.start({
      env: {
        SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
        SHUTDOWN_TIMEOUT_MS: '10000',
        DEMO_REASONING_MS: '200',
        DEMO_TOOL_MS: '400',
      },
    });
    agent = agentFor(first.baseUrl, 'thread-client-stop', [userMessage]);
    let toolResults = 0;
    const subscriber: AgentSubscriber = {
      onRunErrorEvent: ({ event }) => void runErrors.push(event),
      onRunFailed: ({ error }) => void failures.push(error),
      onToolCallResultEvent: () => void toolResults++,
    };
    const running = agent.runAgent({ runId: 'run-1' }, subscriber).then(
      () => undefined,
      (error: unknown) => error,
    );
    resumable = new ResumableHttpAgent({
      url: `${first.baseUrl}/v1/runs`,
      headers: { Authorization: `Bearer ${token}` },
      threadId: 'thread-client-resumable',
      initialMessages: [{ id: 'client-resumable-u1', role: 'user', content: 'do the steps' }],
      // It keeps trying while the service is down, until the restart on the same port below.
      reconnect: { timeoutMs: 120_000 },
    });
    let resumableResults = 0;
    resumableRun = resumable
      .runAgent({ runId: 'run-1' }, { onToolCallResultEvent: () => void resumableResults++ })
      .catch((error: unknown) => error);
    await waitFor(
      () => toolResults > 0 && resumableResults > 0,
      'the first tool results to reach the clients',
    );
    first.kill('SIGTERM');
    rejection = await running;
    await first.waitForExit(15_000);
  });
  afterAll(() => services.stopAll());

  it('surfaces a RUN_ERROR with code RUN_INTERRUPTED to its subscriber', () => {
    expect(runErrors).toHaveLength(1);
    expect(runErrors[0]).toMatchObject({ type: 'RUN_ERROR', code: 'RUN_INTERRUPTED' });
  });

  it('resolves runAgent without raising a client-side validation error', () => {
    expect(rejection).toBeUndefined();
    expect(failures).toEqual([]);
  });

  it('completes the retried run with the same threadId on a restarted service (the resume)', async () => {
    const second = (resumed = await services.restart(services.first, { samePort: true }));
    const retryErrors: RunErrorEvent[] = [];
    const retry = agentFor(second.baseUrl, 'thread-client-stop', agent.messages);
    const { newMessages } = await retry.runAgent(
      { runId: 'run-1' },
      { onRunErrorEvent: ({ event }) => void retryErrors.push(event) },
    );

    expect(retryErrors).toEqual([]);
    expect(
      newMessages.some(
        (m) => m.role === 'assistant' && m.content === 'All 3 steps are done for: do the steps',
      ),
    ).toBe(true);
    const stored = await storedMessages(second.baseUrl, 'thread-client-stop');
    expect(stored.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'step 1 done',
      'step 2 done',
      'step 3 done',
    ]);
    expect(new Set(stored.map((m) => m.id)).size).toBe(stored.length);
    const thread = await api(second.baseUrl, '/v1/threads/thread-client-stop', { token });
    expect(thread.body).toMatchObject({
      status: 'idle',
      interrupt: null,
      lastRun: { runId: 'run-1', status: 'completed' },
    });
  });

  it("brings the ResumableHttpAgent's run through the SIGTERM to its end in one runAgent call, resending it once the service is back", async () => {
    const result = (await resumableRun) as Awaited<ReturnType<HttpAgent['runAgent']>>;

    expect(result.newMessages.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'All 3 steps are done for: do the steps',
    });
    expect(resumable.stats.interruptedRetries).toBeGreaterThanOrEqual(1);
    const stored = await storedMessages(resumed.baseUrl, 'thread-client-resumable');
    expect(stored.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'step 1 done',
      'step 2 done',
      'step 3 done',
    ]);
  });

  describe('after the resumed run finished', () => {
    const request = () => runInput('thread-client-stop', 'run-1', [userMessage]);
    /** What an identical re-send answers: the replay of the run's whole log. */
    let replay: Awaited<ReturnType<typeof startRun>>;

    beforeAll(async () => {
      replay = await startRun(resumed.baseUrl, token, request());
      await replay.done;
    });

    it('answers an identical re-send with one AG-UI sequence ending RUN_FINISHED, the interrupted attempt as notices', () => {
      expect(runShape(replay.frames)).toEqual(FINISHED_RUN);
      expect(replay.frames[0].id).toBe(1);
      const notices = replay.events
        .filter((event) => event.type === 'CUSTOM')
        .map((event) => [event.name, event.value?.code]);
      expect(notices).toEqual([
        ['run_interrupted', 'RUN_INTERRUPTED'],
        ['run_resumed', undefined],
      ]);
    });

    it('answers a join without Last-Event-ID with the same sequence', async () => {
      const joined = await joinRun(resumed.baseUrl, token, 'thread-client-stop');
      await joined.done;

      expect(joined.frames).toEqual(replay.frames);
    });

    it('continues a join after an event of the interrupted attempt to RUN_FINISHED, with one terminal event', async () => {
      const joined = await joinRun(resumed.baseUrl, token, 'thread-client-stop', {
        lastEventId: 2,
      });
      await joined.done;

      expect(joined.frames).toEqual(replay.frames.slice(2));
      expect(runShape(joined.frames)).toMatchObject({
        runStarted: 0,
        terminal: 1,
        last: 'RUN_FINISHED',
      });
    });

    it('resolves an identical re-send through HttpAgent, which validates the sequence, with the whole run and no run error', async () => {
      const errors: RunErrorEvent[] = [];
      const again = agentFor(resumed.baseUrl, 'thread-client-stop', [userMessage]);

      const { newMessages } = await again.runAgent(
        { runId: 'run-1' },
        { onRunErrorEvent: ({ event }) => void errors.push(event) },
      );

      expect(errors).toEqual([]);
      expect(newMessages.at(-1)).toMatchObject({
        role: 'assistant',
        content: 'All 3 steps are done for: do the steps',
      });
    });

    it('resolves an identical re-send through ResumableHttpAgent without another request', async () => {
      const again = new ResumableHttpAgent({
        url: `${resumed.baseUrl}/v1/runs`,
        headers: { Authorization: `Bearer ${token}` },
        threadId: 'thread-client-stop',
        initialMessages: [userMessage],
      });

      const { newMessages } = await again.runAgent({ runId: 'run-1' });

      expect(newMessages.at(-1)).toMatchObject({
        role: 'assistant',
        content: 'All 3 steps are done for: do the steps',
      });
      expect(again.stats).toEqual({
        handovers: 0,
        joins: 0,
        resends: 0,
        interruptedRetries: 0,
        duplicatesDropped: 0,
      });
    });
  });
});
