import { formatReport, type RollingReport } from '../tools/rolling/rolling-report';
import { runRollingProof, type RollingProofOptions } from '../tools/rolling/rolling-proof';
import { rolloutMetrics } from './support/rollout-metrics';
import { describeShortHandover } from './support/short-handover-suite';

/** One rollout: three instances replaced under 100 client sessions; a few minutes at most on a slow machine. */
const ROLLOUT_TIMEOUT_MS = 360_000;

/**
 * The rolling-deployment proof (see `tools/rolling/rolling-proof.ts`): real processes on one
 * PostgreSQL and one Redis, nginx in front, old instances replaced one at a time by real
 * signals while 100 clients keep working. `npm run demo:rolling` runs the same proof and prints
 * the report this suite asserts on.
 */
function rollout(mode: RollingProofOptions['mode']): () => RollingReport {
  let report: RollingReport | undefined;
  beforeAll(async () => {
    report = await runRollingProof({ mode, sessions: 100, instances: 3 });
    console.log(formatReport(report));
  }, ROLLOUT_TIMEOUT_MS);
  return () => {
    if (!report) throw new Error('the rollout did not produce a report; see the beforeAll error');
    return report;
  };
}

describe('a rolling deployment with SIGTERM under 100 client sessions', () => {
  const report = rollout('sigterm');

  it('replaces all three instances while runs are in flight', () => {
    expect(report().shutdowns.map((s) => s.name)).toEqual(['old-1', 'old-2', 'old-3']);
    expect(report().tally.runsStarted).toBeGreaterThanOrEqual(200);
  });

  it('loses no accepted or reported message', () => {
    expect(report().audit.messagesChecked).toBeGreaterThan(0);
    expect(report().audit.messagesLost).toEqual([]);
    expect(report().audit.messagesDuplicated).toBe(0);
  });

  it('never runs a tool call again once its result was saved', () => {
    expect(report().audit.toolExecutions).toBeGreaterThan(0);
    expect(report().audit.toolExecutionsDuplicated).toEqual([]);
    expect(report().audit.stepsRepeated).toEqual([]);
    expect(report().audit.toolExecutionsUnsaved).toEqual([]);
  });

  it('leaves no client request without a retry path, no stream cut off and no 502', () => {
    expect(report().tally.failures).toEqual([]);
    expect(report().tally.runsCutOff).toBe(0);
    expect(report().tally.retriedBadGateway).toBe(0);
  });

  it('stops runs still going at the drain deadline with RUN_INTERRUPTED, and their retries resume them', () => {
    expect(report().tally.runsInterrupted).toBeGreaterThan(0);
    expect(report().tally.runsResumed).toBeGreaterThanOrEqual(report().tally.runsInterrupted);
  });

  it('lets a scrape of GET /metrics see each drain, the runs it interrupted and their resumes as they happened', () => {
    const metrics = rolloutMetrics(report().record);
    for (const { samples } of metrics.duringShutdown) expect(samples.length).toBeGreaterThan(0);
    const draining = metrics.duringShutdown.flatMap(({ samples }) =>
      samples.map((sample) => sample.inFlight ?? 0),
    );
    expect(Math.max(...draining)).toBeGreaterThan(0);
    expect(metrics.outcomes.interrupted).toBeGreaterThan(0);
    expect(metrics.outcomes.completed).toBeGreaterThan(0);
    expect(metrics.resumes.client).toBeGreaterThan(0);
    expect(metrics.resumes.client).toBeLessThanOrEqual(report().tally.runsResumed);
  });

  it('has every old instance exit cleanly within the grace period', () => {
    for (const shutdown of report().shutdowns) {
      expect(shutdown).toMatchObject({ signal: 'SIGTERM', exitCode: 0 });
      expect(shutdown.durationMs).toBeLessThan(report().graceMs);
    }
  });

  it('ends with every turn complete and every thread idle', () => {
    expect(report().audit.turnsIncomplete).toEqual([]);
    expect(report().audit.threadsNotIdle).toEqual([]);
    expect(report().problems).toEqual([]);
  });
});

describe('instances replaced with SIGKILL under 100 client sessions', () => {
  const report = rollout('sigkill');

  it('cuts runs off and resumes them on the remaining instances', () => {
    expect(report().tally.runsCutOff).toBeGreaterThan(0);
    expect(report().tally.runsResumed).toBeGreaterThan(0);
  });

  it('loses nothing that was checkpointed', () => {
    expect(report().audit.messagesChecked).toBeGreaterThan(0);
    expect(report().audit.messagesLost).toEqual([]);
    expect(report().audit.messagesDuplicated).toBe(0);
  });

  it('never redoes finished work', () => {
    expect(report().audit.toolExecutionsDuplicated).toEqual([]);
    expect(report().audit.stepsRepeated).toEqual([]);
    expect(report().audit.toolExecutionsUnsaved).toEqual([]);
  });

  it('leaves no client request without a retry path', () => {
    expect(report().tally.failures).toEqual([]);
  });

  it('ends with every turn complete and every thread idle', () => {
    expect(report().audit.turnsIncomplete).toEqual([]);
    expect(report().audit.threadsNotIdle).toEqual([]);
    expect(report().problems).toEqual([]);
  });
});

describeShortHandover(
  'a rolling deployment that hands runs over (resume mode auto) under 12 resumable clients',
  {},
  (report) => {
    it('lets a scrape of GET /metrics see the drains, and no client resume', () => {
      const metrics = rolloutMetrics(report().record);
      for (const { samples } of metrics.duringShutdown) expect(samples.length).toBeGreaterThan(0);
      expect(metrics.resumes.client ?? 0).toBe(0);
    });
  },
);
