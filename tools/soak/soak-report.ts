import { renderTable } from '../bench/bench-table';
import { formatProofReport, type ReportRow } from '../rolling/proof-report';
import type { SlopeFit } from './slope-fit';
import type { SoakResult } from './soak-run';

/** What the report says about the run, beside its results. */
export interface SoakReportContext {
  command: string;
  seed: number;
  warmupSeconds: number;
  logDir: string;
}

const fixed = (value: number | undefined, decimals: number) =>
  value === undefined ? '–' : value.toFixed(decimals);

/** The per-minute table: runs and turns, memory, handles, database sessions, lag, load, restarts. */
export function minutesTable(result: SoakResult): string {
  const columns = [
    'min',
    'runs done',
    'turns done',
    'cancelled',
    'RSS MB',
    'heap MB',
    'heap after GC MB',
    'handles',
    'db conns',
    'lag p99 ms',
    'load',
    'restarts',
  ];
  const rows = result.minutes.map((m) => [
    String(m.minute),
    m.runsCompleted === undefined ? '–' : String(m.runsCompleted),
    String(m.turnsCompleted),
    String(m.turnsCancelled),
    fixed(m.rssMb, 1),
    fixed(m.heapUsedMb, 1),
    fixed(m.heapAfterGcMb, 1),
    fixed(m.handles, 1),
    m.dbConnectionsMax === undefined ? '–' : String(m.dbConnectionsMax),
    fixed(m.lagP99Ms, 1),
    fixed(m.load1, 2),
    m.restarts ? `SIGTERM (life ${m.lives.join('→')})` : '',
  ]);
  return renderTable(
    columns.map((heading, i) => ({ heading, align: i === columns.length - 1 ? 'left' : 'right' })),
    rows,
  );
}

/** One fitted slope as a line: slope ± its standard error, threshold, verdict. */
function fitLine(name: string, unit: string, fit: SlopeFit, judged = true): ReportRow {
  const share = fit.mean === 0 ? 0 : (fit.slopePerMin / fit.mean) * 100;
  const verdict = judged
    ? `threshold ${fit.thresholdPerMin.toFixed(3)}: ${fit.verdict}`
    : 'shown, not judged';
  const lives = fit.lifeSlopesPerMin.length
    ? `median of the lives' ${fit.lifeSlopesPerMin.map((v) => v.toFixed(2)).join(', ')}; pooled ${fit.pooledSlopePerMin.toFixed(2)} ± ${fit.standardError.toFixed(2)}`
    : `one line over ${fit.lives} lives, ± ${fit.standardError.toFixed(2)}`;
  return [
    `${name} slope, ${unit}/min`,
    `${fit.slopePerMin.toFixed(3)} (${share.toFixed(2)}% of the mean ${fit.mean.toFixed(1)}; ${lives}; ${fit.samples} samples), ${verdict}`,
  ];
}

/**
 * The soak's report: the per-minute table, how the slopes were fitted and their verdicts, the
 * audit's counts, then `PASSED` or each problem.
 */
export function formatSoakReport(result: SoakResult, context: SoakReportContext): string {
  const { audit, fits, side, logEnds } = result;
  const count = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([key, n]) => `${key} ×${n}`)
      .join(', ') || 'none';
  const rows: ReportRow[] = [
    fitLine('RSS after full GC', 'MB', fits.rssAfterGcMb),
    fitLine('heap after full GC', 'MB', fits.heapAfterGcMb),
    fitLine('active handles', 'handles', fits.handles),
    fitLine('RSS (sampled)', 'MB', fits.rssMb, false),
    fitLine('heap used (sampled)', 'MB', fits.heapUsedMb, false),
    [
      'instance lives',
      `${result.restarts.length + 1} (${result.restarts.length} SIGTERM-and-restarts)`,
    ],
    [
      'SIGTERM to exit',
      result.restarts
        .map((r) => (r.exitMs === undefined ? 'did not exit' : `${Math.round(r.exitMs)} ms`))
        .join(', ') || '–',
    ],
    [
      'turns completed / cancelled / not ended',
      `${audit.turns.completed} / ${audit.turns.cancelled} / ${audit.turns.failed.length}`,
    ],
    [
      'run logs read to the end / without terminal event',
      `${logEnds.read} of ${logEnds.runs} / ${logEnds.unfinished.length}`,
    ],
    ['joins (GET …/stream), by ending', `${side.joins}: ${count(side.joinEndings)}`],
    ['joins cut while serving', String(side.joinProblems.length)],
    ['cancels, by HTTP status', count(side.cancels)],
    [
      'messages checked / lost / duplicated',
      `${audit.messagesChecked} / ${audit.messagesLost.length} / ${audit.messagesDuplicated.length}`,
    ],
    [
      'tool executions / duplicated / without a saved result',
      `${audit.toolExecutions} / ${audit.toolExecutionsDuplicated.length} / ${audit.toolExecutionsUnsaved.length}`,
    ],
    [
      'tool effects / duplicated',
      `${audit.toolEffects.effects} / ${audit.toolEffects.duplicated.length}`,
    ],
    ['runs stuck running', String(audit.runsStuckRunning.length)],
    ['threads neither finished nor resumable', String(audit.threadsNotResumable.length)],
    [
      'HTTP requests / 5xx without a retry path / network errors (retried)',
      `${audit.requests} / ${audit.unexplained5xx.length} / ${audit.networkErrors}`,
    ],
    ['run errors seen', count(audit.runErrors)],
    ['instance failures', String(audit.fleetProblems.length)],
    ['duration', `${Math.round(result.durationMs / 1000)} s`],
  ];
  const method = [
    `How the slopes are fitted: a restart resets the process's memory, so one line across the whole soak would fit the`,
    `restarts' saw-tooth. Only samples from ${context.warmupSeconds} s into their instance life on count (the warm-up: JIT, pools, caches,`,
    `V8 sizing its heap). Memory is judged at the same point of V8's cycle: the heap after each full collection`,
    `(--trace-gc: what the program still holds) and the lowest RSS (/proc) in the 10 s after it. Full collections come`,
    `about one a minute or two, too few for a line per life: one line against the age within the life, all lives`,
    `together. Handles (and, shown only, RSS and heap used at any moment, which rise and fall by hundreds of MB between`,
    `full collections): each life gets its own least-squares slope and the median is judged (a leak grows in every life,`,
    `a life that warms up late grows in that one); the slope common to all lives is shown with its standard error.`,
    `Flat: the slope is at most 1% of the mean per minute (15% over 15 minutes), and for handles at most 0.5/min`,
    `whatever the mean; growing (a failure): over that.`,
  ].join('\n');
  return formatProofReport(
    [`soak, seed ${context.seed} (${context.command})`, '', minutesTable(result), '', method],
    rows,
    { passed: result.passed, problems: result.problems },
    [`instance logs, samples and audit: ${context.logDir}`],
  );
}
