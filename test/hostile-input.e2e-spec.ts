import { freePort, waitFor } from 'dev-services';
import { MAX_TOKEN_AGE_S, SECRETS, tokens } from './support/forged-tokens';
import { runInput } from './support/http';
import { ID_ROWS } from './support/hostile-ids';
import { auth, devToken, HOSTILE_ROWS, type Target } from './support/hostile-requests';
import { continueRequest, rawRequest, trickledRequest } from './support/raw-http';
import { ServiceProcess } from './support/service-process';
import { startRun } from './support/sse';
import { StoreRows } from './support/store-rows';

/**
 * Requests an attacker would send, one row each (`support/hostile-requests.ts`), against one
 * running service: each is refused with its status and code, writes nothing to the store (read
 * directly), leaves no secret in the process's log, and leaves the service healthy; a valid run
 * works at the end. The dev-token rows go to a second service, one that asked for a dev token
 * (AUTH_DEV_TOKEN=true): only such a service has a dev token to refuse.
 */

const valid = tokens.valid;

describe('hostile input', () => {
  let target: Target;
  let stores: { api: StoreRows; dev: StoreRows };

  beforeAll(async () => {
    const metricsPort = await freePort();
    const [api, dev] = await Promise.all([
      ServiceProcess.start({
        env: {
          METRICS_PORT: String(metricsPort),
          AUTH_MAX_TOKEN_AGE_S: String(MAX_TOKEN_AGE_S),
          HTTP_HEADERS_TIMEOUT_MS: '1000',
          HTTP_REQUEST_TIMEOUT_MS: '2000',
          MAX_MESSAGES_PER_REQUEST: '5',
          MAX_THREAD_BYTES: '200000',
          DEMO_STEPS: '2',
          DEMO_TOOL_MS: '1200',
        },
      }),
      ServiceProcess.start({ env: { AUTH_JWT_SECRET: '', AUTH_DEV_TOKEN: 'true' } }),
    ]);
    target = { api, dev, metricsUrl: `http://127.0.0.1:${metricsPort}` };
    const first = await startRun(
      api.baseUrl,
      valid,
      runInput('hostile-own', 'run-1', [{ id: 'own-u1', content: 'mine' }]),
    );
    expect(await first.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
    stores = { api: await StoreRows.open(api), dev: await StoreRows.open(dev) };
  });
  afterAll(async () => {
    await Promise.all([stores?.api.close(), stores?.dev.close()]);
    await Promise.all([target?.api.stop(), target?.dev.stop()]);
  });

  it.each([...HOSTILE_ROWS, ...ID_ROWS].map((row) => [row.name, row] as const))(
    'answers %s as it must, writes nothing, logs no secret and stays healthy',
    async (_name, row) => {
      const service = row.onDev ? target.dev : target.api;
      const store = row.onDev ? stores.dev : stores.api;
      const before = await store.counts();

      const response = await row.send(target);

      expect(response.status).toBe(row.status);
      if (row.code)
        expect(response.body).toMatchObject({
          statusCode: row.status,
          code: row.code,
          message: expect.any(String),
        });
      if (row.names) expect(response.body.message).toContain(row.names);
      row.check?.(response);
      expect(await store.counts()).toEqual(before);
      for (const secret of SECRETS) expect(service.logs).not.toContain(secret);
      for (const probe of ['/health/live', '/health/ready'])
        expect((await rawRequest(service.baseUrl, { path: probe })).status).toBe(200);
    },
  );

  it('stores ids at the edge of the rule and text of every allowed class as sent, and replays their retry', async () => {
    const id = `${'A-z.0:9_'.repeat(16)}`; // 128 characters, every class the id rule allows
    const text =
      "tab\tline\r\n\u0001\u007f é 漢字 עברית 👩‍👩‍👧 e\u0301 \ufeff\uffff \u{10ffff} \u2028 <b>&amp;</b> '; DROP";
    const input = runInput('hostile-edge', 'run-1', [{ id, content: text }]);
    expect(await (await startRun(target.api.baseUrl, valid, input)).terminal()).toMatchObject({
      type: 'RUN_FINISHED',
    });
    const read = await rawRequest(target.api.baseUrl, {
      path: '/v1/threads/hostile-edge/messages',
      headers: { authorization: `Bearer ${valid}` },
    });
    expect(read.body.messages[0]).toMatchObject({ id, role: 'user', content: text });
    const before = await stores.api.counts();
    const retry = await startRun(target.api.baseUrl, valid, input);
    expect(await retry.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    expect(await stores.api.counts()).toEqual(before);
  });

  it('logs a body the client abandons once, at warn, without a stack, and writes nothing', async () => {
    const before = await stores.api.counts();
    const lines = () =>
      target.api.logs.split('\n').filter((line) => line.includes('"request body aborted"'));
    const seen = lines().length;
    const head = `POST /v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tokens.valid}\r\nContent-Type: application/json\r\n`;
    expect(
      (
        await trickledRequest(target.api.baseUrl, head, {
          declaredBytes: 1000,
          everyMs: 50,
          abortAfterMs: 300,
        })
      ).status,
    ).toBe(0);
    await waitFor(() => lines().length > seen, 'the aborted body to be logged');
    const line = JSON.parse(lines()[seen]) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'warn', method: 'POST', url: '/v1/runs' });
    expect(JSON.stringify(line)).not.toMatch(/stack|\bat .*\(/);
    expect(await stores.api.counts()).toEqual(before);
  });

  it('answers Expect: 100-continue only after authentication: a refused client never sends its body', async () => {
    const body = JSON.stringify(
      runInput('hostile-continue', 'run-1', [{ id: 'c-u1', content: 'go' }]),
    );
    const headers = { 'content-type': 'application/json' };
    const before = await stores.api.counts();

    const refused = await continueRequest(target.api.baseUrl, {
      path: '/v1/runs',
      headers: { ...headers, ...auth(tokens.expired) },
      body,
    });
    expect(refused).toMatchObject({
      continued: false,
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
    expect(await stores.api.counts()).toEqual(before);

    const served = await continueRequest(target.api.baseUrl, {
      path: '/v1/runs',
      headers: { ...headers, ...auth(valid) },
      body,
    });
    expect(served).toMatchObject({ continued: true, status: 200 });
    expect(served.body).toContain('RUN_FINISHED');
  });

  it('serves the dev token to a direct local request, so the proxy rows above prove the refusal', async () => {
    const response = await devToken({})(target);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token: expect.any(String), userId: 'dev-user' });
  });

  it('serves GET /metrics on METRICS_PORT', async () => {
    const response = await rawRequest(target.metricsUrl, { path: '/metrics' });
    expect(response.status).toBe(200);
    expect(response.body).toContain('# TYPE agent_runs_in_flight gauge');
  });

  it('wrote no error line and no stack for any of it', () => {
    const lines = target.api.logs.split('\n').filter((line) => line.startsWith('{'));
    expect(
      lines.filter((line) => line.includes('"level":"error"') || line.includes('"level":"fatal"')),
    ).toEqual([]);
    expect(lines.filter((line) => /"stack"|\\n\s+at /.test(line))).toEqual([]);
  });

  it('still serves a valid run to completion, its event stream outliving HTTP_REQUEST_TIMEOUT_MS', async () => {
    const before = await stores.api.counts();
    const run = await startRun(
      target.api.baseUrl,
      valid,
      runInput('hostile-after', 'run-1', [{ id: 'after-u1', content: 'still here' }]),
    );
    // DEMO_STEPS 2 with DEMO_TOOL_MS 1200: the stream is open past the 2 s request timeout before its end.
    expect(await run.terminal()).toMatchObject({ type: 'RUN_FINISHED', runId: 'run-1' });
    const after = await stores.api.counts();
    expect(after.agent_threads).toBe(before.agent_threads + 1);
    expect(after.agent_runs).toBe(before.agent_runs + 1);
    for (const secret of SECRETS) expect(target.api.logs).not.toContain(secret);
  });

  it('exits 0 on SIGTERM with its metrics port open, leaving no handle behind', async () => {
    target.api.kill('SIGTERM');
    expect(await target.api.waitForExit(30_000)).toMatchObject({ code: 0 });
  });
});
