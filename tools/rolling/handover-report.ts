import type { HandoverRunSummary } from './handover-summary';
import type { HistoryAudit } from './history-audit';
import { BrokenPromises, formatProofReport, ms, type ReportRow } from './proof-report';
import { formatMetricsScrape } from './metrics-scrape-report';
import type { RolloutFacts } from './rollout-under-load';
import type { RolloutRecord } from './rollout-timeline';
import type { RunLogAudit } from './run-log-audit';
import type { Spread } from './spread';

export interface HandoverReportInput extends RolloutFacts {
  runs: HandoverRunSummary;
  logs: RunLogAudit;
  audit: HistoryAudit;
  durationMs: number;
  /** What happened when, for the timeline picture; its metrics are the report's "metrics scrape". */
  record: RolloutRecord;
}

export interface HandoverReport extends HandoverReportInput {
  /** Every broken promise, described; empty when the proof passed. */
  problems: string[];
  passed: boolean;
}

/** Judges a handover rollout against its promises and returns the report. */
export function judgeHandover(input: HandoverReportInput): HandoverReport {
  const { runs, logs, audit } = input;
  const broken = new BrokenPromises();
  broken.none('runs not completed', runs.failures);
  // A new run nginx misrouted is refused before it starts and resent: the load balancer's doing, not a handover's (see RunTrace.misroutedPosts).
  broken.none(
    'runs for which the client sent a request again, other than a new run the load balancer misrouted',
    runs.retried,
  );
  // A graceful rollout ends every stream with a terminal event or a handover notice.
  broken.none(
    'streams that ended without a terminal event or a handover notice',
    runs.reconnects.dropped,
  );
  broken.none('events lost', logs.eventsLost);
  broken.none('events repeated', logs.eventsRepeated);
  broken.none('runs with a lost, repeated or unknown event', logs.runsWithLossOrRepeat);
  broken.none(
    "runs whose subscriber did not get exactly the log's events",
    logs.deliveryMismatches,
  );
  broken.none('run logs not readable whole', logs.logsUnreadable);
  broken.historyKept(audit);
  broken.cleanExits(input.shutdowns, input.graceMs);
  const { problems } = broken;
  // A rollout that handed nothing over would prove nothing.
  if (runs.gap.count === 0)
    problems.push('no client followed a handover: the rollout did not test anything');
  if (runs.runsAcrossInstances === 0)
    problems.push('no run continued by another instance was followed to its end by its client');
  return { ...input, problems, passed: problems.length === 0 };
}

const spreadOf = (s: Spread) => `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.max)} (${s.count})`;

/** The report as a human reads it: what happened, then each promise and whether it held. */
export function formatHandoverReport(report: HandoverReport): string {
  const { runs, logs, audit, timing } = report;
  const kinds = Object.entries(runs.reconnects)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
  const exits = report.shutdowns
    .map((s) => `${s.name} ${ms(s.durationMs)} (code ${s.exitCode})`)
    .join(', ');
  const rows: ReportRow[] = [
    ['client sessions (threads)', `${report.sessions}, ResumableHttpAgent, one runAgent per turn`],
    [
      'instances replaced',
      `${report.shutdowns.length} of ${report.instances}, with SIGTERM, resume mode auto`,
    ],
    ['load balancer changes', String(report.lbChanges)],
    ['runs (one per turn)', String(runs.runs)],
    ['runs completed with zero client retries', `${runs.completedWithoutRetry} of ${runs.runs}`],
    [
      '  the others: a new run nginx misrouted, resent',
      `${runs.retriedAfterMisroute} runs (${runs.misroutedPosts} POSTs refused before the run started)`,
    ],
    ['client retries for any other reason', `${runs.retried.length} runs (must be 0)`],
    ['client retries: resends / RUN_INTERRUPTED', `${runs.resends} / ${runs.interruptedRetries}`],
    ['handover notices followed', `${runs.handovers} (in ${runs.runsHandedOver} runs)`],
    ['joins', String(runs.joins)],
    ['reconnects by kind', kinds],
    ['stream gap at a handover p50 / p95 / max', `${spreadOf(runs.gap)}`],
    ['  of it, after the notice p50 / p95 / max', spreadOf(runs.gapAfterNotice)],
    [
      'runs continued by another instance',
      `${runs.runsContinued} (instances' "continuing interrupted run" lines)`,
    ],
    [
      'streams that outlived their instance',
      `${runs.runsAcrossInstances} (continued elsewhere, followed to the end; must be > 0)`,
    ],
    ["events in the runs' logs", String(logs.eventsLogged)],
    ['events received (ids, all connections)', String(logs.eventsReceived)],
    ['events lost / repeated', `${logs.eventsLost} / ${logs.eventsRepeated} (must be 0)`],
    ['duplicates dropped by the client', String(runs.duplicatesDropped)],
    [
      'runs whose subscriber events differ from the log',
      `${logs.deliveryMismatches.length} (must be 0)`,
    ],
    [
      'messages checked / lost',
      `${audit.messagesChecked} / ${audit.messagesLost.length} (must be 0)`,
    ],
    [
      'tool executions / duplicated',
      `${audit.toolExecutions} / ${audit.toolExecutionsDuplicated.length} (must be 0)`,
    ],
    ['re-runs of a call cut off before its result was saved', String(audit.toolReRunsBeforeSave)],
    [
      'steps done twice / turns incomplete',
      `${audit.stepsRepeated.length} / ${audit.turnsIncomplete.length}`,
    ],
    ['SIGTERM to exit, per instance', `${exits}; grace ${ms(report.graceMs)}`],
    ['turn latency, no handover p50 / p95 / max', spreadOf(runs.turnLatency.plain)],
    ['turn latency, handed over p50 / p95 / max', spreadOf(runs.turnLatency.handedOver)],
    ['wall time', ms(report.durationMs)],
  ];
  const heading = [
    'rolling deployment proof, HANDOVER mode',
    `demo agent: ${report.demo.steps} steps, ${report.demo.reasoningMs} ms reasoning, ${report.demo.toolMs} ms per tool call`,
    `timings: drain ${timing.drainTimeoutMs} ms, shutdown timeout ${timing.shutdownTimeoutMs} ms, grace ${timing.terminationGracePeriodSeconds} s`,
    'rollout: each old instance leaves the load balancer (nginx serves the new upstreams), then gets SIGTERM',
  ];
  return formatProofReport(heading, rows, report, [formatMetricsScrape(report.record.metrics)]);
}
