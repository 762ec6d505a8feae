import { PostgresServer, RedisCluster, waitFor } from 'dev-services';
import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import { joinRun, startRun, type RunStream } from './support/sse';

const user = tokenFor('rene');
const services = new ServiceGroup();
let postgres: PostgresServer;
let cluster: RedisCluster;

beforeAll(async () => {
  [postgres, cluster] = await Promise.all([PostgresServer.start(), RedisCluster.start()]);
}, 120_000);
afterAll(async () => {
  await services.stopAll();
  await Promise.all([postgres?.destroy(), cluster?.destroy()]);
});

/** The SSE ids of a stream's events, in order. */
const idsOf = (stream: RunStream) =>
  stream.frames.flatMap((frame) => (frame.id === undefined ? [] : [frame.id]));

/**
 * Two instances on a Redis Cluster of 3 masters, each with a replica (`REDIS_CLUSTER=true`),
 * and runs streaming from one instance and joined on the other when the master holding a run's
 * keys is killed: every run ends, each join gets the run's events once and in order, nothing
 * checkpointed is lost, and a cancel crosses instances once the replica took over.
 */
describe('a Redis Cluster failover under two instances', () => {
  it('keeps runs streaming, joins following and cancels crossing, and loses nothing checkpointed', async () => {
    const env = {
      DATABASE_URL: await postgres.createDatabase('cluster_failover'),
      REDIS_URL: cluster.url,
      REDIS_CLUSTER: 'true',
      RESUME_MODE: 'client',
      LEASE_TTL_MS: '1500',
      DEMO_STEPS: '4',
      DEMO_TOOL_MS: '400',
    };
    const [a, b] = [await services.start({ env }), await services.start({ env })];
    const threads = Array.from({ length: 6 }, (_, index) => `cluster-failover-${index}`);
    const runs = await Promise.all(
      threads.map((threadId) =>
        startRun(a.baseUrl, user, runInput(threadId, 'run-1', [{ id: 'u1', content: 'go' }])),
      ),
    );
    await Promise.all(
      runs.map((run) =>
        run.waitForEvent((event) => event.type === 'TOOL_CALL_START', 'the first tool call'),
      ),
    );
    const joins = await Promise.all(
      threads.map((threadId) =>
        joinRun(b.baseUrl, user, threadId, { runId: 'run-1', lastEventId: 0 }),
      ),
    );
    const master = await cluster.masterOf(`agents:log:{${threads[0]}:run-1}`);

    await cluster.killMaster(master);

    const ends = await Promise.all(runs.map((run) => run.terminal()));
    expect(ends.map((end) => end?.type)).toEqual(threads.map(() => 'RUN_FINISHED'));
    await Promise.all(joins.map((join) => join.done));
    for (const [index, join] of joins.entries()) {
      const ids = idsOf(runs[index]);
      expect(ids).toEqual(Array.from({ length: ids.length }, (_, at) => at + 1));
      expect(idsOf(join)).toEqual(ids);
    }
    for (const threadId of threads) {
      const { body } = await api(b.baseUrl, `/v1/threads/${threadId}/messages`, { token: user });
      // The user's message, four tool rounds (a call and its result each), and the answer.
      expect(body.messages.map((message: { role: string }) => message.role)).toEqual([
        'user',
        ...Array(4).fill(['assistant', 'tool']).flat(),
        'assistant',
      ]);
    }

    const late = await startRun(
      a.baseUrl,
      user,
      runInput('cluster-failover-cancel', 'run-1', [{ id: 'u1', content: 'go' }]),
    );
    await late.waitForEvent((event) => event.type === 'STEP_STARTED', 'the run to start');
    const cancel = await api(b.baseUrl, '/v1/runs/cluster-failover-cancel/cancel?waitMs=10000', {
      method: 'POST',
      token: user,
    });
    expect(cancel.body).toMatchObject({ stopped: true, stopReason: 'canceled' });
    await waitFor(
      async () => (await late.terminal())?.code === 'RUN_CANCELED',
      'the canceled run to end',
    );
  }, 120_000);
});
