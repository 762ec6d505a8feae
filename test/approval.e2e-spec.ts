import { HttpAgent } from '@ag-ui/client';
import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { postRun, startRun, type AgUiEvent } from './support/sse';

const token = tokenFor('pat');
const services = new ServiceGroup();
afterEach(() => services.stopAll());

const approvalEnv = { DEMO_STEPS: '1', DEMO_REQUIRE_APPROVAL: 'true' };

/** Starts a run that pauses for approval, restarts the service, and returns the new process and the interrupt. */
async function pausedAcrossRestart(
  threadId: string,
): Promise<{ service: ServiceProcess; interrupt: { id: string; toolCallId: string } }> {
  const first = await services.start({ env: approvalEnv });
  const stream = await startRun(
    first.baseUrl,
    token,
    runInput(threadId, 'run-1', [{ id: 'u1', content: 'one step' }]),
  );
  const terminal = (await stream.terminal()) as AgUiEvent;
  expect(terminal).toMatchObject({
    type: 'RUN_FINISHED',
    outcome: {
      type: 'interrupt',
      interrupts: [
        {
          id: expect.any(String),
          reason: 'tool_approval',
          toolCallId: expect.any(String),
          message: expect.any(String),
        },
      ],
    },
  });
  first.kill('SIGTERM');
  expect((await first.waitForExit()).code).toBe(0);
  const service = await services.restart(first);
  return { service, interrupt: terminal.outcome.interrupts[0] };
}

const answer = (threadId: string, runId: string, resume: unknown[]) => ({
  ...runInput(threadId, runId, [{ id: 'u1', content: 'one step' }]),
  resume,
});

const history = async (service: ServiceProcess, threadId: string) =>
  (await api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token })).body
    .messages as Array<{ role: string; content: string }>;

describe('a tool call that needs approval', () => {
  it('pauses the run as awaiting_approval, keeps the pause across a restart, and runs the call once approved', async () => {
    const { service, interrupt } = await pausedAcrossRestart('approve-1');
    const status = await api(service.baseUrl, '/v1/threads/approve-1', { token });
    expect(status.body).toMatchObject({
      status: 'awaiting_approval',
      activeRunId: null,
      interrupt: { reason: 'approval', pendingToolCalls: [{ id: interrupt.toolCallId }] },
    });

    const resumed = await startRun(
      service.baseUrl,
      token,
      answer('approve-1', 'run-2', [
        { interruptId: interrupt.id, status: 'resolved', payload: { approved: true } },
      ]),
    );

    expect(await resumed.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    expect(resumed.events.find((e) => e.type === 'RUN_FINISHED')?.outcome).toBeUndefined();
    expect(
      (await history(service, 'approve-1')).filter((m) => m.role === 'tool').map((m) => m.content),
    ).toEqual(['step 1 done']);
    expect((await api(service.baseUrl, '/v1/threads/approve-1', { token })).body).toMatchObject({
      status: 'idle',
      interrupt: null,
    });
  });

  it('answers a rejected call to the model as rejected, without running it', async () => {
    const { service, interrupt } = await pausedAcrossRestart('reject-1');

    const resumed = await startRun(
      service.baseUrl,
      token,
      answer('reject-1', 'run-2', [{ interruptId: interrupt.id, status: 'cancelled' }]),
    );

    expect(await resumed.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    const tools = (await history(service, 'reject-1')).filter((m) => m.role === 'tool');
    expect(tools).toHaveLength(1);
    expect(tools[0].content).toMatch(/^rejected/);
  });

  it("ends the pause on a user's cancel: the waiting call answered as canceled, the thread idle, and the next message runs afresh", async () => {
    const service = await services.start({ env: approvalEnv });
    const paused = await startRun(
      service.baseUrl,
      token,
      runInput('cancel-pause', 'run-1', [{ id: 'u1', content: 'one step' }]),
    );
    expect(await paused.terminal()).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'interrupt' },
    });

    const cancel = await api(service.baseUrl, '/v1/runs/cancel-pause/cancel?waitMs=1000', {
      method: 'POST',
      token,
    });

    expect(cancel.body).toMatchObject({
      runId: 'run-1',
      accepted: true,
      stopped: true,
      stopReason: 'canceled',
    });
    const status = await api(service.baseUrl, '/v1/threads/cancel-pause', { token });
    expect(status.body).toMatchObject({
      status: 'idle',
      interrupt: null,
      lastRun: { runId: 'run-1', status: 'canceled' },
    });
    const tools = (await history(service, 'cancel-pause')).filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual([
      expect.stringMatching(
        /^canceled: the user stopped the run while this tool call waited for approval/,
      ),
    ]);
    const next = await startRun(
      service.baseUrl,
      token,
      runInput('cancel-pause', 'run-2', [{ id: 'u2', content: 'another step' }]),
    );
    expect(await next.terminal()).toMatchObject({
      type: 'RUN_FINISHED',
      runId: 'run-2',
      outcome: { type: 'interrupt' },
    });
  });

  it('declines the waiting call for a new message sent with multitask=interrupt, and runs the message', async () => {
    const service = await services.start({ env: approvalEnv });
    const paused = await startRun(
      service.baseUrl,
      token,
      runInput('decline-pause', 'run-1', [{ id: 'u1', content: 'one step' }]),
    );
    expect(await paused.terminal()).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'interrupt' },
    });

    const next = await postRun(
      `${service.baseUrl}/v1/runs?multitask=interrupt`,
      { authorization: `Bearer ${token}` },
      runInput('decline-pause', 'run-2', [{ id: 'u2', content: 'never mind, do this instead' }]),
    );

    // The new message's own step waits for approval again: this demo agent asks for every call.
    expect(await next.terminal()).toMatchObject({
      type: 'RUN_FINISHED',
      runId: 'run-2',
      outcome: { type: 'interrupt' },
    });
    const stored = await history(service, 'decline-pause');
    const tools = stored.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual([
      expect.stringMatching(/^rejected: a human declined this tool call/),
    ]);
    expect(stored.findIndex((m) => m.role === 'tool')).toBeLessThan(
      stored.findIndex((m) => m.content === 'never mind, do this instead'),
    );
  });

  it('queues a new message sent with multitask=enqueue until the approval is answered and its run ended', async () => {
    const service = await services.start({ env: approvalEnv });
    const paused = await startRun(
      service.baseUrl,
      token,
      runInput('queue-pause', 'run-1', [{ id: 'u1', content: 'one step' }]),
    );
    const interrupt = ((await paused.terminal()) as AgUiEvent).outcome.interrupts[0];

    const queued = await postRun(
      `${service.baseUrl}/v1/runs?multitask=enqueue`,
      { authorization: `Bearer ${token}` },
      runInput('queue-pause', 'run-3', [{ id: 'u3', content: 'after that, one more' }]),
    );
    await queued.waitForEvent(
      (e) => e.type === 'CUSTOM' && e.name === 'run_queued',
      'the queued notice',
    );
    const approved = await startRun(
      service.baseUrl,
      token,
      answer('queue-pause', 'run-2', [
        { interruptId: interrupt.id, status: 'resolved', payload: { approved: true } },
      ]),
    );

    expect(queued.events[1]).toMatchObject({ value: { position: 1, activeRunId: null } });
    expect(await approved.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-2' });
    // The queued message's own step waits for approval again: this demo agent asks for every call.
    expect(await queued.terminal()).toMatchObject({
      type: 'RUN_FINISHED',
      runId: 'run-3',
      outcome: { type: 'interrupt' },
    });
    const stored = await history(service, 'queue-pause');
    expect(stored.findIndex((m) => m.content === 'step 1 done')).toBeLessThan(
      stored.findIndex((m) => m.content === 'after that, one more'),
    );
  });

  it('removes the paused run for a new message sent with multitask=rollback, and runs the message', async () => {
    const service = await services.start({ env: approvalEnv });
    const paused = await startRun(
      service.baseUrl,
      token,
      runInput('rollback-pause', 'run-1', [{ id: 'u1', content: 'one step' }]),
    );
    expect(await paused.terminal()).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'interrupt' },
    });

    const next = await postRun(
      `${service.baseUrl}/v1/runs?multitask=rollback`,
      { authorization: `Bearer ${token}` },
      runInput('rollback-pause', 'run-2', [{ id: 'u2', content: 'forget that' }]),
    );

    expect(await next.terminal()).toMatchObject({
      type: 'RUN_FINISHED',
      runId: 'run-2',
      outcome: { type: 'interrupt' },
    });
    expect(next.events[1]).toMatchObject({
      type: 'CUSTOM',
      name: 'run_rolled_back',
      value: { runId: 'run-1', effects: [] },
    });
    const stored = await history(service, 'rollback-pause');
    expect(stored.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['forget that']);
  });

  it('refuses a plain message, an unknown interrupt id, a missing answer and a payload without approved, writing nothing', async () => {
    const { service, interrupt } = await pausedAcrossRestart('bad-answers');
    const before = await history(service, 'bad-answers');

    const plain = await startRun(
      service.baseUrl,
      token,
      runInput('bad-answers', 'run-2', [{ id: 'u2', content: 'hello?' }]),
    );
    const unknown = await startRun(
      service.baseUrl,
      token,
      answer('bad-answers', 'run-3', [
        { interruptId: 'approve:nope', status: 'resolved', payload: { approved: true } },
      ]),
    );
    const missing = await startRun(service.baseUrl, token, answer('bad-answers', 'run-4', []));
    const noFlag = await startRun(
      service.baseUrl,
      token,
      answer('bad-answers', 'run-5', [
        { interruptId: interrupt.id, status: 'resolved', payload: {} },
      ]),
    );

    expect([plain.status, plain.error?.code]).toEqual([409, 'APPROVAL_PENDING']);
    expect(plain.error.message).toContain(interrupt.id);
    expect([unknown.status, unknown.error?.message]).toEqual([
      422,
      expect.stringContaining('resume[0].interruptId'),
    ]);
    expect([missing.status, missing.error?.code]).toEqual([409, 'APPROVAL_PENDING']);
    expect([noFlag.status, noFlag.error?.message]).toEqual([
      422,
      expect.stringContaining('resume[0].payload.approved'),
    ]);
    expect(await history(service, 'bad-answers')).toEqual(before);
    expect((await api(service.baseUrl, '/v1/threads/bad-answers', { token })).body).toMatchObject({
      status: 'awaiting_approval',
    });
  });

  it('works from @ag-ui/client: runAgent reports the interrupt, and runAgent({ resume }) continues the run', async () => {
    const service = await services.start({ env: approvalEnv });
    const agent = new HttpAgent({
      url: `${service.baseUrl}/v1/runs`,
      headers: { Authorization: `Bearer ${token}` },
      threadId: 'approve-client',
      initialMessages: [{ id: 'u1', role: 'user', content: 'one step' }],
    });
    const finished: Array<{ outcome?: { type: string; interrupts?: Array<{ id: string }> } }> = [];

    await agent.runAgent(
      { runId: 'run-1' },
      { onRunFinishedEvent: ({ event }) => void finished.push(event as never) },
    );
    const interruptId = finished[0]?.outcome?.interrupts?.[0]?.id;
    expect(finished[0]?.outcome?.type).toBe('interrupt');
    await agent.runAgent({
      runId: 'run-2',
      resume: [{ interruptId: interruptId!, status: 'resolved', payload: { approved: true } }],
    } as never);

    expect(
      (await history(service, 'approve-client'))
        .filter((m) => m.role === 'tool')
        .map((m) => m.content),
    ).toEqual(['step 1 done']);
  });
});
