import type { HistoryAudit } from './history-audit';
import type { InstanceShutdown } from './rollout';

/** One line of a report's table: what was measured, and its value. */
export type ReportRow = [label: string, value: string];

/**
 * The promises a rollout broke, in the order they were checked: what the reports of both proofs
 * list under `FAILED`.
 *
 * @example
 * const broken = new BrokenPromises();
 * broken.none('messages lost', ['t-1/m-3']); // broken.problems: ['messages lost: 1 (t-1/m-3)']
 */
export class BrokenPromises {
  readonly problems: string[] = [];

  /** Notes `label: count` (with the first five items of a list) when `items`, a list or a count, is not empty. */
  none(label: string, items: readonly string[] | number): void {
    const count = typeof items === 'number' ? items : items.length;
    if (count > 0)
      this.problems.push(
        `${label}: ${count}${typeof items === 'number' ? '' : ` (${items.slice(0, 5).join('; ')})`}`,
      );
  }

  /** Notes what the threads' audit found: messages lost or stored twice, work redone, turns unfinished, threads left busy. */
  historyKept(audit: HistoryAudit): void {
    this.none('messages lost', audit.messagesLost);
    this.none('messages stored twice', audit.messagesDuplicated);
    this.none('tool executions duplicated', audit.toolExecutionsDuplicated);
    this.none('steps done twice', audit.stepsRepeated);
    this.none('tool executions without a saved result', audit.toolExecutionsUnsaved);
    this.none('turns left incomplete', audit.turnsIncomplete);
    this.none('threads not idle at the end', audit.threadsNotIdle);
  }

  /** Notes each instance that did not exit within `graceMs` of its signal, or not with code 0. */
  cleanExits(shutdowns: readonly InstanceShutdown[], graceMs: number): void {
    for (const shutdown of shutdowns) {
      if (!(shutdown.durationMs < graceMs))
        this.problems.push(
          `${shutdown.name} took ${shutdown.durationMs} ms to exit, grace period ${graceMs} ms`,
        );
      if (shutdown.exitCode !== 0)
        this.problems.push(
          `${shutdown.name} exited with code ${shutdown.exitCode}, signal ${shutdown.exitSignal}`,
        );
    }
  }
}

/** Milliseconds, rounded; `did not exit` for the duration of an instance killed at the end of its grace period (Infinity). */
export function ms(value: number): string {
  return Number.isFinite(value) ? `${Math.round(value)} ms` : 'did not exit';
}

/**
 * A proof's report as a human reads it: its heading lines, the table of what happened, any
 * further `sections` (e.g. the metrics scrape), then `PASSED` or each broken promise.
 */
export function formatProofReport(
  heading: readonly string[],
  rows: readonly ReportRow[],
  verdict: { passed: boolean; problems: readonly string[] },
  sections: readonly string[] = [],
): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    ...heading,
    '',
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    '',
    ...sections.flatMap((section) => [section, '']),
    verdict.passed ? 'PASSED' : `FAILED:\n${verdict.problems.map((p) => `  - ${p}`).join('\n')}`,
  ].join('\n');
}
