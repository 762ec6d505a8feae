import { formatHandoverReport, type HandoverReport } from '../tools/rolling/handover-report';
import { runHandoverProof } from '../tools/rolling/handover-proof';

/** The short handover rollout on a Redis Cluster: two instances replaced under 12 client sessions. */
const HANDOVER_TIMEOUT_MS = 150_000;

/**
 * The handover proof (see `tools/rolling/handover-proof.ts`) with the instances on a local Redis
 * Cluster of 3 masters, each with a replica (`REDIS_CLUSTER=true`, `REDIS_URL` a seed node):
 * the signals, the run event logs and the joins of handed-over runs all go through the cluster.
 * `npm run demo:rolling -- --mode handover --redis cluster` runs the long version.
 */
describe('a rolling deployment with handover on a Redis Cluster, under 12 client sessions', () => {
  let handover: HandoverReport | undefined;
  beforeAll(async () => {
    handover = await runHandoverProof({ sessions: 12, instances: 2, redis: 'cluster' });
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

  it('never makes a client send a run under way again, nor runs a saved tool call again', () => {
    expect(report().runs.interruptedRetries).toBe(0);
    // The only resends allowed: new runs nginx misrouted to an instance out of its upstreams, refused before they started.
    expect(report().runs.resends).toBe(report().runs.misroutedPosts);
    expect(report().runs.failures).toEqual([]);
    expect(report().audit.toolExecutionsDuplicated).toEqual([]);
    expect(report().audit.stepsRepeated).toEqual([]);
  });

  it('has every old instance exit 0 within the grace period, and passes', () => {
    for (const shutdown of report().shutdowns) {
      expect(shutdown).toMatchObject({ signal: 'SIGTERM', exitCode: 0 });
      expect(shutdown.durationMs).toBeLessThan(report().graceMs);
    }
    expect(report().passed).toBe(true);
  });
});
