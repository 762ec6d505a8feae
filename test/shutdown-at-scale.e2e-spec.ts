import { api, runInput, tokenFor } from './support/http';
import { ServiceGroup } from './support/service-group';
import type { ServiceProcess } from './support/service-process';
import { startRun, type RunStream } from './support/sse';
import { waitFor } from 'dev-services';

const user = tokenFor('alice');
const RUNS = 300;

/** The `run ends saved` lines of a service's log: how many run ends each transaction held. */
function saveBatches(logs: string): number[] {
  return logs
    .split('\n')
    .filter((line) => line.includes('"run ends saved"'))
    .map((line) => Number((JSON.parse(line) as { runs: number }).runs));
}

/** Every thread of the user, through the paged list. */
async function allThreads(
  service: ServiceProcess,
): Promise<Array<{ threadId: string; status: string }>> {
  const threads: Array<{ threadId: string; status: string }> = [];
  for (let cursor: string | undefined; ;) {
    const page = await api(
      service.baseUrl,
      `/v1/threads?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token: user },
    );
    threads.push(...(page.body.threads as typeof threads));
    cursor = page.body.nextCursor as string | undefined;
    if (!cursor) return threads;
  }
}

describe(`SIGTERM with ${RUNS} runs in flight`, () => {
  const services = new ServiceGroup();
  let first: ServiceProcess;
  let streams: RunStream[];

  beforeAll(async () => {
    first = await services.start({
      // A lease long enough that a renewal delayed on a loaded machine takes no run away before the signal.
      env: {
        SHUTDOWN_DRAIN_TIMEOUT_MS: '0',
        SHUTDOWN_TIMEOUT_MS: '20000',
        DEMO_REASONING_MS: '600000',
        MAX_RUNS_PER_USER: String(RUNS * 2),
        LEASE_TTL_MS: '60000',
      },
    });
    streams = await Promise.all(
      Array.from({ length: RUNS }, (_, i) =>
        startRun(
          first.baseUrl,
          user,
          runInput(`scale-${i}`, `run-${i}`, [{ id: `u-${i}`, content: 'work' }]),
        ),
      ),
    );
    await waitFor(
      async () =>
        ((await api(first.baseUrl, '/health/ready')).body?.details?.shutdown?.inFlightRuns ?? 0) >=
        RUNS,
      `${RUNS} runs in flight`,
      60_000,
    );
    first.kill('SIGTERM');
  }, 120_000);

  afterAll(() => services.stopAll());

  it('exits 0 after telling every client RUN_INTERRUPTED', async () => {
    expect(await first.waitForExit(30_000)).toMatchObject({ code: 0, signal: null });
    const terminals = await Promise.all(streams.map((stream) => stream.terminal()));

    expect(
      terminals.filter((t) => t?.type === 'RUN_ERROR' && t.code === 'RUN_INTERRUPTED'),
    ).toHaveLength(RUNS);
  });

  it('saves the run ends in a few batched transactions, each run once', async () => {
    await first.waitForExit(30_000);
    const batches = saveBatches(first.logs);

    expect(batches.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(RUNS);
    expect(batches.length).toBeLessThan(RUNS / 10);
    expect(Math.max(...batches)).toBeGreaterThan(10);
  });

  it('leaves every thread interrupted with its marker, none running, after a restart', async () => {
    await first.waitForExit(30_000);
    const second = await services.restart(first);

    const threads = await allThreads(second);
    const sample = await api(second.baseUrl, '/v1/threads/scale-7', { token: user });

    expect(threads).toHaveLength(RUNS);
    expect(threads.filter((t) => t.status === 'interrupted')).toHaveLength(RUNS);
    expect(sample.body).toMatchObject({
      status: 'interrupted',
      activeRunId: null,
      interrupt: { reason: 'shutdown', runId: 'run-7' },
    });
  });
});
