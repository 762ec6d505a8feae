import { Client } from 'pg';
import { SharedBackends } from './support/backends';
import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { startRun } from './support/sse';
import { waitFor } from 'dev-services';

const user = tokenFor('erin');
const backends = new SharedBackends();
const services = new ServiceGroup();

beforeAll(() => backends.start(), 120_000);
afterAll(async () => {
  await services.stopAll();
  await backends.stop();
});

/** A JSON log line of `service` with this `msg` on `threadId`, once printed. */
function logLine(
  service: ServiceProcess,
  msg: string,
  threadId: string,
): Record<string, unknown> | undefined {
  for (const line of service.logs.split('\n')) {
    if (!line.includes(msg)) continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (entry.msg === msg && entry.threadId === threadId) return entry;
  }
  return undefined;
}

interface EffectRow {
  idempotency_key: string;
  tool_call_id: string;
  fencing_token: number;
}

describe('fenced tool effects across a paused instance', () => {
  it("refuses the late effect of a paused instance's tool call by its fencing token, keeping one effect and one result", async () => {
    // Lease 1.5 s (the shared environment), client resume: the test's retry on B takes the run over.
    const env = await backends.environment({ DEMO_STEPS: '1', DEMO_TOOL_MS: '4000' });
    const ledger = new Client({ connectionString: env.DATABASE_URL });
    const threadId = 'thread-fenced-effect';
    const input = runInput(threadId, 'run-1', [{ id: 'u1', content: 'one step' }]);
    const a = await services.start({ env });
    const b = await services.start({ env });
    await ledger.connect();
    try {
      const paused = await startRun(a.baseUrl, user, input);
      const started = await waitFor(
        () => logLine(a, 'demo tool started', threadId),
        'the demo tool to start on A',
        60_000,
      );
      const { toolCallId, idempotencyKey, fencingToken } = started as {
        toolCallId: string;
        idempotencyKey: string;
        fencingToken: number;
      };

      a.kill('SIGSTOP');
      let effects: EffectRow[];
      try {
        await waitFor(
          async () =>
            (await api(b.baseUrl, `/v1/threads/${threadId}`, { token: user })).body.status ===
            'interrupted',
          'the paused instance to lose its lease',
          60_000,
        );
        const takeover = await startRun(b.baseUrl, user, input);
        expect(takeover.status).toBe(200);
        effects = await waitFor(
          async () => {
            const { rows } = await ledger.query<EffectRow>(
              'SELECT idempotency_key, tool_call_id, fencing_token FROM demo_tool_effects WHERE idempotency_key = $1',
              [idempotencyKey],
            );
            return rows.length > 0 ? rows : undefined;
          },
          "the takeover's effect to be recorded",
          60_000,
        );
        expect(await takeover.terminal()).toMatchObject({ type: 'RUN_FINISHED' });
      } finally {
        a.kill('SIGCONT');
      }

      const refused = await waitFor(
        () => logLine(a, 'demo tool effect refused', threadId),
        "A's late effect to be refused",
        60_000,
      );
      expect(refused).toMatchObject({
        toolCallId,
        idempotencyKey,
        staleToken: fencingToken,
        currentToken: effects[0].fencing_token,
      });
      expect(effects[0].fencing_token).toBeGreaterThan(fencingToken);
      expect(await paused.terminal()).toMatchObject({ type: 'RUN_ERROR' });

      const { rows: allEffects } = await ledger.query<EffectRow>(
        'SELECT idempotency_key, tool_call_id, fencing_token FROM demo_tool_effects WHERE thread_id = $1',
        [threadId],
      );
      expect(allEffects).toEqual([
        {
          idempotency_key: idempotencyKey,
          tool_call_id: toolCallId,
          fencing_token: effects[0].fencing_token,
        },
      ]);
      const { body } = await api(b.baseUrl, `/v1/threads/${threadId}/messages`, { token: user });
      const results = (
        body.messages as Array<{ role: string; toolCallId?: string; content: string }>
      ).filter((m) => m.role === 'tool' && m.toolCallId === toolCallId);
      expect(results).toEqual([expect.objectContaining({ content: 'step 1 done' })]);
    } finally {
      await ledger.end();
      await services.stopAll();
    }
  });
});
