import { formatHandoverReport, type HandoverReport } from '../tools/rolling/handover-report';
import { runHandoverProof } from '../tools/rolling/handover-proof';
import { rolloutMetrics } from './support/rollout-metrics';

/** The short handover rollout: two instances replaced under 12 client sessions; about 30 s here. */
const HANDOVER_TIMEOUT_MS = 120_000;

/**
 * The handover proof (`npm run demo:rolling -- --mode handover --signals postgres`) on PostgreSQL
 * alone: no Redis is started, the instances signal through `LISTEN`/`NOTIFY` and keep their run
 * logs in the database, and they hand runs over (resume mode `auto`) as they do with Redis.
 */
describe('a rolling deployment that hands runs over on PostgreSQL alone (SIGNALS=postgres) under 12 resumable clients', () => {
  let handover: HandoverReport | undefined;
  beforeAll(async () => {
    // Turns of about 4.8 s against a 1 s drain: each SIGTERM finds runs it cannot finish, which it hands over.
    handover = await runHandoverProof({ sessions: 12, instances: 2, signals: 'postgres', demo: { steps: 5, reasoningMs: 400, toolMs: 400 } });
    console.log(formatHandoverReport(handover));
  }, HANDOVER_TIMEOUT_MS);
  const report = () => {
    if (!handover) throw new Error('the rollout did not produce a report; see the beforeAll error');
    return handover;
  };

  it('hands runs over, and their clients follow them to the end on another instance', () => {
    expect(report().runs.gap.count).toBeGreaterThan(0);
    expect(report().runs.runsAcrossInstances).toBeGreaterThan(0);
  });

  it("loses and repeats no event: each client received exactly its run's log", () => {
    expect(report().logs.eventsLogged).toBeGreaterThan(0);
    expect(report().logs.eventsLost).toBe(0);
    expect(report().logs.eventsRepeated).toBe(0);
    expect(report().logs.deliveryMismatches).toEqual([]);
    expect(report().logs.logsUnreadable).toEqual([]);
  });

  it('never makes a client send a run under way again', () => {
    expect(report().runs.interruptedRetries).toBe(0);
    // The only resends allowed: new runs nginx misrouted to an instance out of its upstreams, refused before they started.
    expect(report().runs.resends).toBe(report().runs.misroutedPosts);
    expect(report().runs.retried).toEqual([]);
    expect(report().runs.failures).toEqual([]);
  });

  it('never runs a tool call again once its result was saved', () => {
    expect(report().audit.toolExecutionsDuplicated).toEqual([]);
    expect(report().audit.stepsRepeated).toEqual([]);
  });

  it('lets the survivors take the runs over by themselves, and every old instance exits 0 within the grace period', () => {
    expect(rolloutMetrics(report().record).resumes.auto).toBeGreaterThan(0);
    for (const shutdown of report().shutdowns) {
      expect(shutdown).toMatchObject({ signal: 'SIGTERM', exitCode: 0 });
      expect(shutdown.durationMs).toBeLessThan(report().graceMs);
    }
    expect(report().problems).toEqual([]);
  });
});
