import { SharedBackends } from './support/backends';
import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { startRun, type RunStream } from './support/sse';
import { waitFor } from 'dev-services';

const backends = new SharedBackends();
const services = new ServiceGroup();
let a: ServiceProcess;
let b: ServiceProcess;

// Two instances on one PostgreSQL and one Redis; runs stay in their first reasoning call, so
// each holds a slot until its process dies.
beforeAll(async () => {
  await backends.start();
  const env = await backends.environment({
    MAX_RUNS_PER_USER: '2',
    RATE_LIMIT_PER_MINUTE: '10',
    DEMO_REASONING_MS: '60000',
  });
  [a, b] = await Promise.all([services.start({ env }), services.start({ env })]);
}, 120_000);
afterAll(async () => {
  await services.stopAll();
  await backends.stop();
});

const input = (threadId: string) =>
  runInput(threadId, 'run-1', [{ id: `${threadId}-u1`, content: 'go' }]);

describe('MAX_RUNS_PER_USER on two instances sharing PostgreSQL', () => {
  it('admits exactly the limit of runs started at once through both instances', async () => {
    const racer = tokenFor('multi-racer');
    const streams = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        startRun((i % 2 ? a : b).baseUrl, racer, input(`race-${i}`)),
      ),
    );

    const admitted = streams.filter((s) => s.status === 200);
    const refused = streams.filter((s) => s.status !== 200);

    expect(admitted).toHaveLength(2);
    expect(refused.map((s) => [s.status, s.error?.code, s.headers.get('retry-after')])).toEqual(
      Array(4).fill([429, 'TOO_MANY_RUNS', '5']),
    );
    const { body } = await api(a.baseUrl, '/v1/threads', { token: racer });
    expect(body.threads).toHaveLength(2);
    for (const stream of admitted) stream.cut();
  });
});

describe('RATE_LIMIT_PER_MINUTE with REDIS_URL', () => {
  it('counts a user’s requests across both instances', async () => {
    const shared = tokenFor('multi-shared');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await api((i % 2 ? a : b).baseUrl, '/v1/threads', { token: shared })).status);

    const over = await api(a.baseUrl, '/v1/threads', { token: shared });

    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('keeps limiting, never with a 5xx, while Redis is down', async () => {
    const during = tokenFor('multi-outage');
    await backends.redis.stop();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++)
        statuses.push((await api(a.baseUrl, '/v1/threads', { token: during })).status);

      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses.slice(10)).toEqual([429, 429]);
    } finally {
      await backends.redis.startAgain();
    }
  });
});

// Last: it kills instance a.
describe('MAX_RUNS_PER_USER after a crash', () => {
  it("does not count a killed instance's runs once their leases have expired", async () => {
    const survivor = tokenFor('multi-survivor');
    const held: RunStream[] = [];
    for (const threadId of ['ghost-1', 'ghost-2']) {
      held.push(await startRun(a.baseUrl, survivor, input(threadId)));
      await held
        .at(-1)!
        .waitForEvent((e) => e.type === 'RUN_STARTED', `the run on ${threadId} to start`);
    }
    const refused = await startRun(b.baseUrl, survivor, input('after-1'));
    expect(refused.status).toBe(429);

    a.kill('SIGKILL');
    await a.waitForExit();

    // LEASE_TTL_MS is 1.5 s here; a refused attempt writes nothing, so trying again is safe.
    const admitted = await waitFor(
      async () => {
        const stream = await startRun(b.baseUrl, survivor, input('after-1'));
        return stream.status === 200 ? stream : undefined;
      },
      'a run to be admitted once the dead instance’s leases expired',
      10_000,
      1_000,
    );
    expect(admitted.status).toBe(200);
    admitted.cut();
  });
});
