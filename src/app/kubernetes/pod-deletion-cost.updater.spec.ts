import { join } from 'node:path';
import {
  PodPatchServer,
  serviceAccountDir,
  StepTimers,
  type Answer,
} from './kubernetes-api.fixtures';
import { PodAnnotationPatcher } from './pod-annotation-patcher';
import { PodDeletionCostUpdater, type UpdaterLog } from './pod-deletion-cost.updater';

const INTERVAL_MS = 10_000;
const BACKOFF_MS = 1_000;
const BACKOFF_MAX_MS = 8_000;

/** A recording log. */
class Lines implements UpdaterLog {
  readonly lines: Array<{ level: string } & Record<string, unknown>> = [];
  debug = (message: Record<string, unknown>) =>
    void this.lines.push({ level: 'debug', ...message });
  log = (message: Record<string, unknown>) => void this.lines.push({ level: 'log', ...message });
  warn = (message: Record<string, unknown>) => void this.lines.push({ level: 'warn', ...message });
}

let account: ReturnType<typeof serviceAccountDir>;
let server: PodPatchServer;
let timers: StepTimers;
let log: Lines;
let runs: number;
let updater: PodDeletionCostUpdater;

async function startUpdater(...answers: Answer[]): Promise<void> {
  server = new PodPatchServer(answers);
  const patcher = new PodAnnotationPatcher(
    { baseUrl: await server.listen(), tokenFile: join(account.dir, 'token') },
    'agents',
    'pod-a',
  );
  updater = new PodDeletionCostUpdater(() => runs, patcher, log, {
    intervalMs: INTERVAL_MS,
    backoffInitialMs: BACKOFF_MS,
    backoffMaxMs: BACKOFF_MAX_MS,
    timers,
  });
  updater.start();
}

/** The deletion costs the stand-in API was sent, in order. */
function patchedCosts(): string[] {
  return server.calls.map(
    (call) =>
      (JSON.parse(call.body) as { metadata: { annotations: Record<string, string> } }).metadata
        .annotations['controller.kubernetes.io/pod-deletion-cost'],
  );
}

beforeEach(() => {
  account = serviceAccountDir('secret-token');
  timers = new StepTimers();
  log = new Lines();
  runs = 0;
});

afterEach(async () => {
  await updater.stop();
  await server.close();
  account.remove();
});

describe('PodDeletionCostUpdater', () => {
  it('writes the cost at its first check, at once, even when idle: the annotation may be left from before', async () => {
    await startUpdater();
    expect(timers.delays).toEqual([0]);
    await timers.next();
    expect(patchedCosts()).toEqual(['0']);
    expect(server.calls[0].headers.authorization).toBe('Bearer secret-token');
  });

  it('patches only when the bucketed count changes, checking once per interval', async () => {
    await startUpdater();
    for (const count of [0, 1, 1, 3, 2, 5, 7, 4, 9, 0]) {
      runs = count;
      await timers.next();
    }
    expect(patchedCosts()).toEqual(['0', '1', '2', '4', '8', '0']);
    expect(timers.delays.slice(1).every((ms) => ms === INTERVAL_MS)).toBe(true);
  });

  it('sends one patch for many runs started between two checks, not one per run', async () => {
    await startUpdater();
    await timers.next();
    for (let started = 0; started < 40; started += 1) runs += 1;
    await timers.next();
    expect(patchedCosts()).toEqual(['0', '32']);
  });

  it('backs off after failed patches, doubling the wait up to its maximum, then returns to the interval', async () => {
    const failure = {
      status: 500,
      body: { kind: 'Status', message: 'etcdserver: request timed out' },
    };
    await startUpdater(failure, failure, failure, failure, failure);
    runs = 3;
    for (let attempt = 0; attempt < 6; attempt += 1) await timers.next();
    expect(patchedCosts()).toEqual(['2', '2', '2', '2', '2', '2']);
    expect(timers.delays).toEqual([0, 1_000, 2_000, 4_000, 8_000, 8_000, INTERVAL_MS]);
  });

  it('retries with the count of the moment, not the one that failed', async () => {
    await startUpdater({ status: 503 });
    runs = 1;
    await timers.next();
    runs = 8;
    await timers.next();
    expect(patchedCosts()).toEqual(['1', '8']);
  });

  it('logs each failure with its status and next wait, and the recovery, never the token', async () => {
    await startUpdater({
      status: 403,
      body: { kind: 'Status', message: 'pods "pod-a" is forbidden' },
    });
    await timers.next();
    await timers.next();
    expect(log.lines.filter((line) => line.level !== 'debug')).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'pod deletion cost not set',
        status: 403,
        failures: 1,
        retryInMs: BACKOFF_MS,
      }),
      expect.objectContaining({
        level: 'log',
        msg: 'pod deletion cost set again',
        cost: 0,
        failures: 1,
      }),
    ]);
    expect(JSON.stringify(log.lines)).not.toContain('secret-token');
  });

  it('schedules nothing more once stopped', async () => {
    await startUpdater();
    await timers.next();
    await updater.stop();
    expect(timers.waiting).toBe(false);
    expect(server.calls).toHaveLength(1);
  });

  it('waits at stop for a patch under way', async () => {
    await startUpdater();
    const step = timers.next();
    await updater.stop();
    expect(server.calls).toHaveLength(1);
    await step;
    expect(timers.waiting).toBe(false);
  });
});
