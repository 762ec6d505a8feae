import { formatHandoverReport, type HandoverReport } from '../../tools/rolling/handover-report';
import { runHandoverProof, type HandoverProofOptions } from '../../tools/rolling/handover-proof';
import { rolloutMetrics } from './rollout-metrics';

/** The short handover rollout: two instances replaced under 12 client sessions; about 30 s here, longer on a cluster. */
const HANDOVER_TIMEOUT_MS = 150_000;

/**
 * The short handover proof (`tools/rolling/handover-proof.ts`, two instances replaced under 12
 * resumable clients) on one backend, and what every backend must show: runs handed over and
 * followed to their end, no event lost or repeated, no run sent again, no saved tool call run
 * again, the survivors resuming by themselves, and every old instance exiting 0 within its grace
 * period. `more` adds a backend's own checks of the same report.
 */
export function describeShortHandover(
  title: string,
  options: Omit<HandoverProofOptions, 'sessions' | 'instances'>,
  more?: (report: () => HandoverReport) => void,
): void {
  describe(title, () => {
    let handover: HandoverReport | undefined;
    beforeAll(async () => {
      handover = await runHandoverProof({ sessions: 12, instances: 2, ...options });
      console.log(formatHandoverReport(handover));
    }, HANDOVER_TIMEOUT_MS);
    const report = () => {
      if (!handover)
        throw new Error('the rollout did not produce a report; see the beforeAll error');
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
      expect(report().passed).toBe(true);
    });

    more?.(report);
  });
}
