import type { ChartFiles } from '../charts/chart-files';
import type { HandoverReport } from './handover-report';
import type { RollingReport } from './rolling-report';
import { spread } from './spread';
import { timelineSvg, type TimelineTitle } from './timeline-chart';
import { timelineRows } from './timeline-data';
import type { UpgradeReport } from './upgrade-report';

/** A report of any proof, told apart by its mode. */
export type ProofReport =
  | { mode: 'sigterm' | 'sigkill'; report: RollingReport }
  | { mode: 'handover'; report: HandoverReport }
  | { mode: 'upgrade'; report: UpgradeReport };

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The title and the few numbers written above a proof's timeline. */
export function timelineTitle(proof: ProofReport): TimelineTitle {
  const { report } = proof;
  const gaps = spread(report.record.gaps.map((gap) => gap.toMs - gap.fromMs));
  const gapLine = gaps.count
    ? `clients without events p50 ${seconds(gaps.p50)}, max ${seconds(gaps.max)}`
    : 'no client went without events';
  const verdict = report.passed ? 'PASSED' : `FAILED (${report.problems.length} broken promises)`;
  const replaced = `${report.shutdowns.length} instances replaced under ${report.sessions} clients`;
  if (proof.mode === 'handover') {
    const { runs, logs, audit } = proof.report;
    return {
      title: `Rolling deployment, HANDOVER (resume mode auto): ${replaced}`,
      facts: [
        `${runs.runsHandedOver} runs handed over, each continued by another instance; client retries ${runs.retried.length} (besides ${runs.retriedAfterMisroute} misrouted new runs)`,
        `${gapLine}; events lost ${logs.eventsLost}, repeated ${logs.eventsRepeated}; tool calls run twice ${audit.toolExecutionsDuplicated.length}; ${verdict}`,
      ],
    };
  }
  const { tally, audit } = proof.report;
  if (proof.mode === 'upgrade') {
    const { from, to, resumes } = proof.report.upgrade;
    return {
      title: `Rolling upgrade, ${from.release} to ${to.release} (SIGTERM, resume mode client): ${replaced}`,
      facts: [
        `${resumes.interruptedByOld} runs interrupted by old instances, ${resumes.resumedByNew} of them resumed by new ones; ${gapLine}`,
        `messages lost ${audit.messagesLost.length}, tool calls run twice ${audit.toolExecutionsDuplicated.length}, runs stuck ${resumes.runsStuck.length}; ${verdict}`,
      ],
    };
  }
  const disturbed =
    proof.mode === 'sigterm'
      ? `${tally.runsInterrupted} runs interrupted (RUN_INTERRUPTED)`
      : `${tally.runsCutOff} runs cut off`;
  return {
    title: `Rolling deployment, ${proof.mode.toUpperCase()} (resume mode client): ${replaced}`,
    facts: [
      `${disturbed}, ${tally.runsResumed} resumed by the client's retry; ${gapLine}`,
      `messages lost ${audit.messagesLost.length}, tool calls run twice ${audit.toolExecutionsDuplicated.length}, turns incomplete ${audit.turnsIncomplete.length}; ${verdict}`,
    ],
  };
}

/** Writes the proof's timeline as `rolling-<mode>.svg|png` (see {@link ChartFiles}); returns the files written. */
export async function writeTimelineImage(files: ChartFiles, proof: ProofReport): Promise<string[]> {
  const svg = await timelineSvg(timelineRows(proof.report.record), timelineTitle(proof));
  return files.write(`rolling-${proof.mode}`, svg);
}
