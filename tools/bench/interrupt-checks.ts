import type { TerminalEvent } from './timed-run-stream';

/**
 * What is wrong with how a run replaced by `newRunId` (`multitask=interrupt`) ended: anything
 * but `RUN_ERROR` `RUN_REPLACED` naming the new run is a failure of the section, not a number.
 */
export function replacedRunProblems(
  terminal: TerminalEvent | undefined,
  newRunId: string,
): string[] {
  if (!terminal) return ['the replaced run ended without a terminal event'];
  const problems: string[] = [];
  if (terminal.type !== 'RUN_ERROR' || terminal.code !== 'RUN_REPLACED') {
    problems.push(
      `the replaced run ended ${terminal.type}${terminal.code ? ` ${terminal.code}` : ''}, not RUN_ERROR RUN_REPLACED`,
    );
  }
  if (terminal.replacedBy?.runId !== newRunId || terminal.replacedBy.multitask !== 'interrupt') {
    problems.push(
      `the replaced run names ${JSON.stringify(terminal.replacedBy ?? null)}, not ${newRunId} by interrupt`,
    );
  }
  return problems;
}

/**
 * The order the cases of repetition `i` run in: rotated by one each time, so each case follows
 * each other one as often, and drift in machine load or a warm connection favours none.
 *
 * @example
 * rotation(['a', 'b', 'c'], 1); // ['b', 'c', 'a']
 */
export function rotation<T>(cases: readonly T[], i: number): T[] {
  const shift = cases.length === 0 ? 0 : i % cases.length;
  return [...cases.slice(shift), ...cases.slice(0, shift)];
}
