import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { startRun, type AgUiEvent } from './support/sse';

// One tool step that waits for approval: every run ends quickly, `awaiting_approval`, until answered.
const ENV = {
  DEMO_STEPS: '1',
  DEMO_REQUIRE_APPROVAL: 'true',
  DEMO_REASONING_MS: '300',
  DEMO_TOOL_MS: '50',
  SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
};

const services = new ServiceGroup();
let service: ServiceProcess;

beforeAll(async () => {
  service = await services.start({ env: ENV });
});
afterAll(() => services.stopAll());

interface ListItem {
  threadId: string;
  status: string;
  messageCount: number;
  updatedAt: string;
}

const list = (token: string, query = '', on = service) =>
  api<{ threads: ListItem[]; nextCursor?: string }>(on.baseUrl, `/v1/threads${query}`, { token });

/** Runs one message on `threadId` to its end (a pause for approval); returns the terminal event. */
async function pausedRun(token: string, threadId: string, on = service): Promise<AgUiEvent> {
  const stream = await startRun(
    on.baseUrl,
    token,
    runInput(threadId, 'run-1', [{ id: `${threadId}-u1`, content: 'one step' }]),
  );
  return (await stream.terminal()) as AgUiEvent;
}

/** Answers the pending approval of `threadId` (paused by `pausedRun`) with yes, and waits for the run's end. */
async function approve(token: string, threadId: string, paused: AgUiEvent): Promise<void> {
  const resume = [
    {
      interruptId: paused.outcome.interrupts[0].id,
      status: 'resolved',
      payload: { approved: true },
    },
  ];
  const stream = await startRun(service.baseUrl, token, {
    ...runInput(threadId, 'run-2', [{ id: `${threadId}-u1`, content: 'one step' }]),
    resume,
  });
  expect(await stream.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
}

describe('GET /v1/threads', () => {
  it("lists the caller's threads most recently active first, and moves a thread to the front when it runs again", async () => {
    const token = tokenFor('lister-order');
    const first = await pausedRun(token, 'order-a');
    await pausedRun(token, 'order-b');
    await pausedRun(token, 'order-c');

    const before = await list(token);
    await approve(token, 'order-a', first);
    const after = await list(token);

    expect(before.status).toBe(200);
    expect(before.body.threads.map((t) => t.threadId)).toEqual(['order-c', 'order-b', 'order-a']);
    expect(before.body.nextCursor).toBeUndefined();
    expect(after.body.threads.map((t) => [t.threadId, t.status])).toEqual([
      ['order-a', 'idle'],
      ['order-c', 'awaiting_approval'],
      ['order-b', 'awaiting_approval'],
    ]);
    expect(after.body.threads[0]).toEqual({
      threadId: 'order-a',
      status: 'idle',
      messageCount: expect.any(Number),
      updatedAt: expect.any(String),
    });
    expect(after.body.threads[0].messageCount).toBeGreaterThan(before.body.threads[2].messageCount);
  });

  it('pages with nextCursor to the end, each thread once, the last page without a cursor', async () => {
    const token = tokenFor('lister-pages');
    const ids = ['page-1', 'page-2', 'page-3', 'page-4', 'page-5'];
    await Promise.all(ids.map((id) => pausedRun(token, id)));

    const pages: ListItem[][] = [];
    let query = '?limit=2';
    for (let guard = 0; guard < 5; guard++) {
      const { status, body } = await list(token, query);
      expect(status).toBe(200);
      pages.push(body.threads);
      if (!body.nextCursor) break;
      query = `?limit=2&cursor=${encodeURIComponent(body.nextCursor)}`;
    }

    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    const listed = pages.flat();
    expect(listed.map((t) => t.threadId).sort()).toEqual(ids);
    const times = listed.map((t) => t.updatedAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it("shows each user only their own threads, never another user's", async () => {
    const alice = tokenFor('lister-alice');
    const bob = tokenFor('lister-bob');
    await pausedRun(alice, 'alice-only');
    await pausedRun(bob, 'bob-only');

    expect((await list(alice)).body.threads.map((t) => t.threadId)).toEqual(['alice-only']);
    expect((await list(bob)).body.threads.map((t) => t.threadId)).toEqual(['bob-only']);
    expect((await list(tokenFor('lister-nobody'))).body).toEqual({ threads: [] });
  });

  it.each([
    ['limit=0', 'INVALID_LIMIT', /^limit: /],
    ['limit=101', 'INVALID_LIMIT', /^limit: /],
    ['limit=ten', 'INVALID_LIMIT', /^limit: /],
    ['limit=1&limit=2', 'INVALID_LIMIT', /^limit: /],
    ['cursor=not-a-cursor!', 'INVALID_CURSOR', /^cursor: /],
    [
      `cursor=${Buffer.from('["yesterday","t"]').toString('base64url')}`,
      'INVALID_CURSOR',
      /^cursor: /,
    ],
  ])('answers ?%s with 400 %s naming the field', async (query, code, message) => {
    const { status, body } = await list(tokenFor('lister-bad'), `?${query}`);

    expect(status).toBe(400);
    expect(body).toEqual({ statusCode: 400, code, message: expect.stringMatching(message) });
  });

  it('answers 401 without a token', async () => {
    expect((await api(service.baseUrl, '/v1/threads')).status).toBe(401);
  });
});

describe('GET /v1/threads across a restart', () => {
  it('shows running, idle, interrupted and awaiting_approval threads with their status', async () => {
    const token = tokenFor('lister-status');
    const own = await services.start({ env: { ...ENV, DEMO_REASONING_MS: '1500' } });
    const paused = await pausedRun(token, 'status-approval', own);
    const toBeIdle = await startRun(own.baseUrl, token, {
      ...runInput('status-approval', 'run-2', [{ id: 'status-approval-u1', content: 'one step' }]),
      resume: [
        {
          interruptId: paused.outcome.interrupts[0].id,
          status: 'resolved',
          payload: { approved: true },
        },
      ],
    });
    expect(await toBeIdle.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    await pausedRun(token, 'status-paused', own);
    const cut = await startRun(
      own.baseUrl,
      token,
      runInput('status-interrupted', 'run-1', [{ id: 'i-u1', content: 'one step' }]),
    );
    await cut.waitForEvent(
      (e) => e.type === 'STEP_STARTED',
      'the interrupted run to start its step',
    );
    own.kill('SIGTERM');
    expect((await own.waitForExit()).code).toBe(0);
    const restarted = await services.restart(own);
    const running = await startRun(
      restarted.baseUrl,
      token,
      runInput('status-running', 'run-1', [{ id: 'r-u1', content: 'one step' }]),
    );
    await running.waitForEvent(
      (e) => e.type === 'STEP_STARTED',
      'the running run to start its step',
    );

    const { body } = await list(token, '', restarted);

    expect(Object.fromEntries(body.threads.map((t) => [t.threadId, t.status]))).toEqual({
      'status-approval': 'idle',
      'status-paused': 'awaiting_approval',
      'status-interrupted': 'interrupted',
      'status-running': 'running',
    });
    expect(body.threads[0].threadId).toBe('status-running');
  });
});
