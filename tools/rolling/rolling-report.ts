import type { ClientTally } from './client-session';
import type { HistoryAudit } from './history-audit';
import { BrokenPromises, formatProofReport, ms, type ReportRow } from './proof-report';
import { formatMetricsScrape } from './metrics-scrape-report';
import type { RolloutFacts } from './rollout-under-load';
import type { RolloutRecord } from './rollout-timeline';
import { spread } from './spread';

/** Turn latencies, in ms: undisturbed turns against turns that needed a retry. */
export interface LatencySummary {
  undisturbed: { count: number; p50: number; p95: number };
  disrupted: { count: number; p50: number; p95: number; max: number };
  /** Median extra time a disrupted turn took over an undisturbed one. */
  extraP50: number;
  /** 95th percentile of the same. */
  extraP95: number;
}

export interface RollingReportInput extends RolloutFacts {
  mode: 'sigterm' | 'sigkill';
  tally: ClientTally;
  audit: HistoryAudit;
  durationMs: number;
  /** What happened when, for the timeline picture; its metrics are the report's "metrics scrape". */
  record: RolloutRecord;
}

export interface RollingReport extends RollingReportInput {
  latency: LatencySummary;
  /** Every broken promise, described; empty when the proof passed. */
  problems: string[];
  passed: boolean;
}

function summarize(tally: ClientTally): LatencySummary {
  const plain = spread(
    tally.turns.filter((t) => t.completed && !t.disrupted).map((t) => t.durationMs),
  );
  const disrupted = spread(
    tally.turns.filter((t) => t.completed && t.disrupted).map((t) => t.durationMs),
  );
  return {
    undisturbed: { count: plain.count, p50: plain.p50, p95: plain.p95 },
    disrupted,
    extraP50: Math.max(0, disrupted.p50 - plain.p50),
    extraP95: Math.max(0, disrupted.p95 - plain.p50),
  };
}

/** Judges a rollout against its promises and returns the report. */
export function judge(input: RollingReportInput): RollingReport {
  const { tally, audit } = input;
  const broken = new BrokenPromises();
  broken.historyKept(audit);
  broken.none('requests failed without a retry path', tally.failures);
  if (input.mode === 'sigterm') {
    broken.cleanExits(input.shutdowns, input.graceMs);
    // A graceful rollout ends every stream with a terminal event and never drops a request.
    broken.none('streams cut off during a graceful rollout', tally.runsCutOff);
    broken.none(
      '502/504 from the load balancer during a graceful rollout',
      tally.retriedBadGateway,
    );
  }
  const { problems } = broken;
  // A rollout that disturbed nothing would prove nothing.
  const disturbed = input.mode === 'sigterm' ? tally.runsInterrupted : tally.runsCutOff;
  if (disturbed === 0)
    problems.push(
      `no run was ${input.mode === 'sigterm' ? 'interrupted' : 'cut off'}: the rollout did not test anything`,
    );
  if (tally.runsResumed === 0) problems.push('no run was resumed');
  return { ...input, latency: summarize(tally), problems, passed: problems.length === 0 };
}

/** A report's parts, for a proof that adds its own (see `upgrade-report.ts`): heading lines, the table, the sections below it. */
export interface ReportParts {
  heading: string[];
  rows: ReportRow[];
  sections: string[];
}

/** The report as a human reads it: what happened, then each promise and whether it held. */
export function formatReport(report: RollingReport): string {
  const { heading, rows, sections } = reportParts(report);
  return formatProofReport(heading, rows, report, sections);
}

/** The tokens the old instances' shutdowns discarded, summed from their `runs drained` lines. */
function discardedTokens(shutdowns: RollingReport['shutdowns']): string {
  const counted = shutdowns.filter((s) => s.tokensDiscarded);
  if (counted.length === 0) return 'n/a (no runs drained line: SIGKILL)';
  const input = counted.reduce((sum, s) => sum + s.tokensDiscarded!.input, 0);
  const output = counted.reduce((sum, s) => sum + s.tokensDiscarded!.output, 0);
  return `${input.toLocaleString('en-US')} / ${output.toLocaleString('en-US')}`;
}

/** What {@link formatReport} prints, in parts. */
export function reportParts(report: RollingReport): ReportParts {
  const { tally, audit, latency, timing } = report;
  const longest = Math.max(...report.shutdowns.map((s) => s.durationMs));
  const rows: ReportRow[] = [
    ['client sessions (threads)', String(report.sessions)],
    [
      'instances replaced',
      `${report.shutdowns.length} of ${report.instances}, with ${report.mode.toUpperCase()}`,
    ],
    ['load balancer changes', String(report.lbChanges)],
    ['runs started', String(tally.runsStarted)],
    ['runs completed', String(tally.runsCompleted)],
    ['runs interrupted (RUN_INTERRUPTED)', String(tally.runsInterrupted)],
    ['runs cut off (instance killed)', String(tally.runsCutOff)],
    ['runs resumed', String(tally.runsResumed)],
    ['503 + Retry-After, retried', String(tally.retriedShuttingDown)],
    ['409 while a dead run held the thread, retried', String(tally.retriedInProgress)],
    ['502/504 from the load balancer, retried', String(tally.retriedBadGateway)],
    [
      'connection errors, retried',
      `${tally.retriedConnectionErrors}${tally.connectionErrors.length ? ` (${[...new Set(tally.connectionErrors)].slice(0, 3).join('; ')})` : ''}`,
    ],
    ['requests failed without a retry path', `${tally.failures.length} (must be 0)`],
    ['messages checked', String(audit.messagesChecked)],
    ['messages lost', `${audit.messagesLost.length} (must be 0)`],
    ['tool executions', String(audit.toolExecutions)],
    ['tool executions duplicated', `${audit.toolExecutionsDuplicated.length} (must be 0)`],
    ['re-runs of a call cut off before its result was saved', String(audit.toolReRunsBeforeSave)],
    [
      'steps done twice / turns incomplete',
      `${audit.stepsRepeated.length} / ${audit.turnsIncomplete.length}`,
    ],
    [
      'model tokens discarded by cut-off calls, input / output (estimated)',
      discardedTokens(report.shutdowns),
    ],
    [
      'longest shutdown / grace period',
      report.mode === 'sigterm'
        ? `${ms(longest)} / ${ms(report.graceMs)} (must be under)`
        : 'n/a (SIGKILL)',
    ],
    [
      'turn latency, undisturbed p50 / p95',
      `${ms(latency.undisturbed.p50)} / ${ms(latency.undisturbed.p95)} (${latency.undisturbed.count} turns)`,
    ],
    [
      'turn latency, disrupted p50 / p95 / max',
      `${ms(latency.disrupted.p50)} / ${ms(latency.disrupted.p95)} / ${ms(latency.disrupted.max)} (${latency.disrupted.count} turns)`,
    ],
    ['extra latency clients saw, p50 / p95', `${ms(latency.extraP50)} / ${ms(latency.extraP95)}`],
    ['wall time', ms(report.durationMs)],
  ];
  const heading = [
    `rolling deployment proof, ${report.mode.toUpperCase()} mode`,
    `demo agent: ${report.demo.steps} steps, ${report.demo.reasoningMs} ms reasoning, ${report.demo.toolMs} ms per tool call`,
    `timings: preStop ${timing.preStopSeconds} s, drain ${timing.drainTimeoutMs} ms, shutdown timeout ${timing.shutdownTimeoutMs} ms, grace ${timing.terminationGracePeriodSeconds} s`,
  ];
  return { heading, rows, sections: [formatMetricsScrape(report.record.metrics)] };
}
