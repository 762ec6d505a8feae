import type { Page } from 'playwright-core';
import { HeadlessBrowser, keepScreenshot, waitForText } from './support/browser';
import { api } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { waitFor } from 'dev-services';

// No AUTH_JWT_SECRET and AUTH_DEV_TOKEN=true: the service makes a secret at boot and the page fills in its dev token. Steps
// are short, yet long enough (three rounds of 400 ms calls) for a stop or a SIGTERM to land mid-run.
const ENV = {
  AUTH_JWT_SECRET: '',
  AUTH_DEV_TOKEN: 'true',
  DEMO_STEPS: '3',
  DEMO_REASONING_MS: '400',
  DEMO_TOOL_MS: '400',
  SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
};
const APPROVAL_ENV = { ...ENV, DEMO_STEPS: '1', DEMO_REQUIRE_APPROVAL: 'true' };
const RUN_MS = 30_000;

const services = new ServiceGroup();
let browser: HeadlessBrowser;
let service: ServiceProcess;
let page: Page;

beforeAll(async () => {
  [service, browser] = await Promise.all([services.start({ env: ENV }), HeadlessBrowser.launch()]);
  page = await browser.open(service.baseUrl);
});

afterAll(async () => {
  await browser?.close();
  await services.stopAll();
});

const status = () => page.getByRole('status', { name: 'Status', exact: true });
const steps = () => page.getByRole('region', { name: 'Run steps' });
const conversation = () => page.getByRole('region', { name: 'Conversation' });
const notices = () => page.getByRole('status', { name: 'Connection', exact: true });

/** Starts a new thread from the page and sends `text`; returns the thread's id as the page shows it. */
async function sendOnNewThread(text: string): Promise<string> {
  await page.getByRole('button', { name: 'New thread' }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  return (
    (await page.getByRole('main').getByRole('heading', { level: 2 }).textContent()) ?? ''
  ).trim();
}

/** The thread as the service tells it, read with the token the page holds. */
async function threadOnServer(threadId: string): Promise<any> {
  const token = await page.getByRole('textbox', { name: 'Token' }).inputValue();
  return (await api(service.baseUrl, `/v1/threads/${threadId}`, { token })).body;
}

async function toolResults(threadId: string): Promise<string[]> {
  const token = await page.getByRole('textbox', { name: 'Token' }).inputValue();
  const { body } = await api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token });
  return (body.messages as Array<{ role: string; content: string }>)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);
}

describe('the console page', () => {
  it('fills in the dev token of this boot', async () => {
    const token = page.getByRole('textbox', { name: 'Token' });

    await waitFor(
      async () => (await token.inputValue()).startsWith('eyJ'),
      'the dev token in the Token box',
    );

    expect(service.logs).toContain(await token.inputValue());
  });

  it('runs a message to its answer: running with its steps as they stream, then idle', async () => {
    const threadId = await sendOnNewThread('do the steps');

    await waitForText(status(), 'running', 'the status running');
    await waitForText(
      steps(),
      /acting.*step 1 done/s,
      'the first acting step with its tool result',
    );
    await waitForText(status(), 'idle', 'the status idle', RUN_MS);

    await waitForText(
      conversation(),
      /All 3 steps are done for: do the steps/,
      'the answer in the conversation',
    );
    expect(await steps().textContent()).toMatch(
      /reasoning.*asks for demo_step.*acting.*step 3 done.*Finished/s,
    );
    expect(await threadOnServer(threadId)).toMatchObject({
      status: 'idle',
      lastRun: { status: 'completed' },
    });
    await keepScreenshot(page, 'console', 'full-run');
  });

  it('stops a run with Stop: the run is canceled and the thread idle', async () => {
    const threadId = await sendOnNewThread('do the steps, then stop');
    await waitForText(steps(), /step 1 done/, 'the first tool result');

    await page.getByRole('button', { name: 'Stop' }).click();

    await waitForText(status(), 'idle', 'the status idle after the stop');
    await waitForText(steps(), /Stopped: the run was canceled/, 'the stop in the run steps');
    expect(await threadOnServer(threadId)).toMatchObject({
      status: 'idle',
      lastRun: { status: 'canceled', stopReason: 'canceled' },
    });
    expect((await toolResults(threadId)).length).toBeLessThan(3);
    await keepScreenshot(page, 'console', 'stop');
  });

  it('sends a message while a run goes: that run stops and the new message runs to its answer', async () => {
    const threadId = await sendOnNewThread('do the steps, then change course');
    await waitForText(steps(), /step 1 done/, 'the first tool result');

    await page.getByRole('textbox', { name: 'Message' }).fill('no, the other account');
    await page.getByRole('button', { name: 'Send' }).click();

    await waitForText(
      conversation(),
      /All 3 steps are done for: no, the other account/,
      'the answer to the second message',
      RUN_MS,
    );
    await waitForText(status(), 'idle', 'the status idle once the second run finished', RUN_MS);
    const token = await page.getByRole('textbox', { name: 'Token' }).inputValue();
    const { body } = await api(service.baseUrl, `/v1/threads/${threadId}/messages`, { token });
    const users = (body.messages as Array<{ role: string; content: string; runId: string }>).filter(
      (m) => m.role === 'user',
    );
    expect(users.map((m) => m.content)).toEqual([
      'do the steps, then change course',
      'no, the other account',
    ]);
    expect(new Set(users.map((m) => m.runId)).size).toBe(2);
    expect(await threadOnServer(threadId)).toMatchObject({
      status: 'idle',
      lastRun: { status: 'completed' },
    });
  });

  it('lists the threads with their status and opens one', async () => {
    const threads = page.getByRole('navigation', { name: 'Threads' });
    await waitFor(
      async () => (await threads.getByRole('button', { name: /^thread-/ }).count()) >= 2,
      'both threads in the list',
    );

    await threads
      .getByRole('button', { name: /^thread-/ })
      .last()
      .click();

    await waitForText(
      conversation(),
      /All 3 steps are done for: do the steps/,
      'the first thread opened from the list',
    );
    expect(await threads.textContent()).toMatch(/idle/);
  });

  it('finishes a run by itself across a SIGTERM and a restart of the server, saying it lost and regained it', async () => {
    const threadId = await sendOnNewThread('do the steps across a restart');
    await waitForText(steps(), /step 1 done/, 'the first tool result');

    service.kill('SIGTERM');
    expect((await service.waitForExit()).code).toBe(0);
    await waitForText(
      notices(),
      /interrupted.*resuming|Connection lost/s,
      'the page saying the run was interrupted',
    );
    service = await services.restart(service, { samePort: true });

    await waitForText(notices(), /Reconnected/, 'the page saying it has the run back', RUN_MS);
    await waitForText(status(), 'idle', 'the status idle once the run finished', RUN_MS);
    await waitForText(
      conversation(),
      /All 3 steps are done for: do the steps across a restart/,
      'the answer after the restart',
    );
    expect(await toolResults(threadId)).toEqual(['step 1 done', 'step 2 done', 'step 3 done']);
    expect(await threadOnServer(threadId)).toMatchObject({
      status: 'idle',
      lastRun: { status: 'completed' },
    });
    await keepScreenshot(page, 'console', 'restart');
  });
});

describe('the console page on a service whose tool calls need approval', () => {
  beforeAll(async () => {
    await service.stop();
    service = await services.start({
      env: APPROVAL_ENV,
      dataDir: service.dataDir,
      port: service.port,
    });
    await page.reload();
  });

  it('shows awaiting_approval with Approve, and finishes the run once approved', async () => {
    const threadId = await sendOnNewThread('one step, with approval');
    await waitForText(status(), 'awaiting_approval', 'the status awaiting_approval');
    const approve = page.getByRole('button', { name: 'Approve' });
    await keepScreenshot(page, 'console', 'approval');

    await approve.click();

    await waitForText(status(), 'idle', 'the status idle after the approval', RUN_MS);
    await waitForText(conversation(), /All 1 steps are done/, 'the answer after the approval');
    expect(await toolResults(threadId)).toEqual(['step 1 done']);
    expect(await approve.count()).toBe(0);
  });

  it('answers Reject to the model as rejected, without running the tool', async () => {
    const threadId = await sendOnNewThread('one step, to reject');
    await waitForText(status(), 'awaiting_approval', 'the status awaiting_approval');

    await page.getByRole('button', { name: 'Reject' }).click();

    await waitForText(status(), 'idle', 'the status idle after the rejection', RUN_MS);
    expect(await toolResults(threadId)).toEqual([expect.stringMatching(/^rejected/)]);
    await waitForText(conversation(), /Tool result: rejected/, 'the rejection in the conversation');
  });
});

describe('the console routes', () => {
  it('serves no dev token unless AUTH_DEV_TOKEN=true asks for one, even without AUTH_JWT_SECRET, and still serves the page with a strict CSP', async () => {
    const [withSecret, unasked] = await Promise.all([
      services.start(),
      services.start({ env: { AUTH_JWT_SECRET: '' } }),
    ]);

    const tokens = await Promise.all(
      [withSecret, unasked].map((service) => api(service.baseUrl, '/console/dev-token')),
    );
    const home = await fetch(`${withSecret.baseUrl}/`);

    expect(tokens.map((token) => [token.status, token.body?.code])).toEqual([
      [404, 'NO_DEV_TOKEN'],
      [404, 'NO_DEV_TOKEN'],
    ]);
    expect(unasked.logs).toContain('Set AUTH_DEV_TOKEN=true for a dev token');
    expect(unasked.logs).not.toMatch(/"token":"eyJ/);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-security-policy')).toMatch(
      /default-src 'none'; script-src 'self'/,
    );
    expect(await home.text()).toContain('/console/assets/console.js');
  });

  it('answers 404 at / and for its files with CONSOLE_ENABLED=false, leaving the API as it is', async () => {
    const off = await services.start({ env: { CONSOLE_ENABLED: 'false' } });

    const statuses = await Promise.all(
      ['/', '/console/assets/console.js', '/console/dev-token'].map(
        async (path) => (await fetch(`${off.baseUrl}${path}`)).status,
      ),
    );

    expect(statuses).toEqual([404, 404, 404]);
    expect((await fetch(`${off.baseUrl}/v1/threads`)).status).toBe(401);
    expect((await fetch(`${off.baseUrl}/health/live`)).status).toBe(200);
  });
});
